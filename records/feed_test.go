package records

import (
	"errors"
	"strings"
	"testing"
)

func TestParseFeed(t *testing.T) {
	rss := `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Blog</title>
<item><title>First &amp; best</title><link>/2019/first/</link>
<description><![CDATA[<p>The first post, in <b>bold</b> […]</p>]]></description><pubDate>Mon, 18 Nov 2019 10:00:00 +0000</pubDate></item>
<item><title>No link</title></item>
<item><title>By guid</title><guid>http://example.org/?p=3</guid></item>
</channel></rss>`
	items, err := ParseFeed("blog.xml", []byte(rss), "http://example.org/feed/")
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[0].Title != "First & best" || items[0].Link != "http://example.org/2019/first/" ||
		!strings.Contains(items[0].Description, "<b>bold</b>") || items[1].Link != "http://example.org/?p=3" {
		t.Fatalf("RSS items = %+v", items)
	}
	atom := `<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
<entry><title type="html">Entry one</title><link rel="alternate" href="https://a.example/one"/><summary>Summary one</summary><updated>2019-11-18T10:00:00Z</updated></entry>
<entry><title>Entry two</title><link rel="edit" href="https://a.example/edit/2"/><link href="https://a.example/two"/><content type="html">&lt;p&gt;Body two&lt;/p&gt;</content></entry>
</feed>`
	items, err = ParseFeed("a.atom", []byte(atom), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[0].Link != "https://a.example/one" || items[0].Description != "Summary one" ||
		items[1].Link != "https://a.example/two" || items[1].Description != "<p>Body two</p>" || items[0].Published == "" {
		t.Fatalf("Atom items = %+v", items)
	}
	for _, bad := range []string{`<html><body>not a feed</body></html>`, `<rss><channel><item><title>x</title></item></channel></rss>`, `<feed><entry/></feed>`, ``} {
		if _, err := ParseFeed("bad.xml", []byte(bad), ""); !errors.Is(err, ErrBadFeed) || !strings.HasPrefix(err.Error(), "bad.xml: ") {
			t.Errorf("ParseFeed(%.30q) err = %v, want ErrBadFeed naming the file", bad, err)
		}
	}
}

func TestFeedGramsAndTemplate(t *testing.T) {
	g := feedGrams("Bleak House", "<p>A novel by <b>Charles Dickens</b>.</p>")
	for _, want := range []string{"bleak house", "a novel by", "by charles dickens"} {
		if !g[want] {
			t.Errorf("feedGrams lacks %q: %v", want, sortedKeys(g))
		}
	}
}
