package records

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

const articleFixture = `<html><head><title>Rain returns to the valley | Daily Post</title>
<meta name="description" content="After six dry months, rain returned to the valley."></head><body>
<header><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav></header>
<div id="main"><article><h1>Rain returns to the valley</h1>
<div class="byline">By <a href="/a">A. Writer</a></div>
<div class="story-body">
<p>After six dry months, rain returned to the valley on Monday, filling the reservoirs that farmers had watched empty all summer.</p>
<figure><img src="r.jpg"><figcaption>The reservoir on Monday morning, half full again.</figcaption></figure>
<p>Farmers said the rain came just in time for the winter crops, which had been sown in dry ground weeks ago.</p>
<h2>What comes next</h2>
<p>Forecasters expect more showers this week, with heavier rain in the hills and the first snow on the peaks.</p>
<div class="share"><a href="/s1">Share on the network of the day</a> <a href="/s2">Share by e-mail to a friend</a></div>
</div></article>
<aside><h3>Most read</h3><ul><li><a href="/1">A long headline about something else that happened</a></li><li><a href="/2">Another long headline about another thing entirely</a></li></ul></aside>
</div><footer>Copyright 2019 Daily Post. All rights reserved. Terms of use and privacy policy apply here.</footer></body></html>`

func TestExtractArticleFixture(t *testing.T) {
	arts, err := ExtractArticles(t.Context(), []ArticlePage{{Name: "rain.html", HTML: []byte(articleFixture)}}, DefaultArticleOptions())
	if err != nil {
		t.Fatal(err)
	}
	a := arts[0]
	want := "After six dry months, rain returned to the valley on Monday, filling the reservoirs that farmers had watched empty all summer.\n\n" +
		"Farmers said the rain came just in time for the winter crops, which had been sown in dry ground weeks ago.\n\n" +
		"What comes next\n\n" +
		"Forecasters expect more showers this week, with heavier rain in the hills and the first snow on the peaks."
	if a.Text != want {
		t.Errorf("text:\n%s\nwant:\n%s", a.Text, want)
	}
	if a.Title != "Rain returns to the valley" || a.XPath != "/html[1]/body[1]/div[1]/article[1]/div[2]" ||
		a.Signifiers != ArticleSignifiersPage || a.Error != "" || len(a.Terms) == 0 {
		t.Errorf("article = %+v", a)
	}
}

// TestExtractArticlesBadInput: unreadable, empty, huge or absurd pages give an Article
// with an error naming the page, never a panic or a failure of the whole call.
func TestExtractArticlesBadInput(t *testing.T) {
	deep := strings.Repeat("<div>", 20000) + "text " + strings.Repeat("</div>", 20000)
	o := DefaultArticleOptions()
	o.MaxPageBytes = 1 << 20
	pages := []ArticlePage{
		{Name: "empty.html"},
		{Name: "nul.bin", HTML: bytes.Repeat([]byte{0, 1, 2, 0}, 100)},
		{Name: "nobody.html", HTML: []byte("<html><head><title>t</title></head></html>")},
		{Name: "deep.html", HTML: []byte(deep)},
		{Name: "big.html", HTML: bytes.Repeat([]byte("<p>word word</p>"), 1<<17)},
		{Name: "ok.html", URL: "http://example.org/rain", HTML: []byte(articleFixture)},
	}
	arts, err := ExtractArticles(t.Context(), pages, o)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range arts[:5] {
		if a.Error == "" || !strings.Contains(a.Error, pages[i].Name) {
			t.Errorf("%s: error %q, want one naming the page", pages[i].Name, a.Error)
		}
	}
	if arts[5].Error != "" || arts[5].Text == "" {
		t.Errorf("ok.html: %+v", arts[5])
	}
	if _, err := ExtractArticles(t.Context(), nil, o); !errors.Is(err, ErrNoPages) {
		t.Errorf("no pages: %v", err)
	}
	o.Method = "magic"
	if _, err := ExtractArticles(t.Context(), pages, o); !errors.Is(err, ErrBadOptions) {
		t.Errorf("bad method: %v", err)
	}
}

// TestArticleTemplateRemoval: with several pages of one site, text blocks the pages
// share are the template and are left out even inside the main block.
func TestArticleTemplateRemoval(t *testing.T) {
	page := func(body string) []byte {
		return []byte(`<html><head><title>x</title></head><body><div class="post"><p>` + body +
			`</p><p>Subscribe to our newsletter to get every story of the week delivered to your inbox for free.</p></div></body></html>`)
	}
	pages := []ArticlePage{
		{Name: "1", URL: "http://s.example/1", HTML: page("The first story is about a river that changed its course after the storm of the century.")},
		{Name: "2", URL: "http://s.example/2", HTML: page("The second story is about a bakery that has fed the same street for a hundred years.")},
		{Name: "3", URL: "http://s.example/3", HTML: page("The third story tells of a library that lends tools as well as books to its readers.")},
	}
	arts, err := ExtractArticles(t.Context(), pages, DefaultArticleOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range arts {
		if strings.Contains(a.Text, "newsletter") || !strings.Contains(a.Text, "story") || a.Signifiers != ArticleSignifiersTFIDF {
			t.Errorf("%s: %q (signifiers %s)", a.Page, a.Text, a.Signifiers)
		}
	}
}
