package records

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/antchfx/htmlquery"
	"golang.org/x/net/html"
)

// A small result-page template with what trips record isolation up: the query echoed
// in the search box and in a "Results for" heading, highlighted query words inside
// records, a numbered pager, a sidebar of popular searches, header and footer links,
// and a no-result page that echoes the query.

type book struct{ title, author, year string }

var shelf = []book{
	{"Great Expectations", "Charles Dickens", "1861"},
	{"Bleak House", "Charles Dickens", "1853"},
	{"Hard Times", "Charles Dickens", "1854"},
	{"Oliver Twist", "Charles Dickens", "1838"},
	{"Pride and Prejudice", "Jane Austen", "1813"},
	{"Emma", "Jane Austen", "1815"},
	{"Persuasion", "Jane Austen", "1817"},
	{"Middlemarch", "George Eliot", "1871"},
	{"Silas Marner", "George Eliot", "1861"},
	{"Jane Eyre", "Charlotte Bronte", "1847"},
	{"Villette", "Charlotte Bronte", "1853"},
	{"Wuthering Heights", "Emily Bronte", "1847"},
}

func chrome(q, body string) string {
	return `<!DOCTYPE html><html><head><title>Results for ` + q + ` — Shelfside</title>
<script>var x = "dickens austen eliot";</script><style>.r{}</style></head><body>
<header class="top"><a href="/">Shelfside</a><nav><a href="/new">New titles</a> <a href="/authors">Authors</a> <a href="/help">Help</a></nav></header>
<form action="/search" role="search"><input name="q" value="` + q + `"><button>Search</button></form>
<div class="layout"><aside class="side"><h4>Popular searches</h4><ul class="popular">
<li><a href="/search?q=dickens">dickens</a></li><li><a href="/search?q=austen">austen</a></li><li><a href="/search?q=eliot">eliot</a></li><li><a href="/search?q=bronte">bronte</a></li></ul></aside>
<main class="content">` + body + `</main></div>
<footer><ul class="links"><li><a href="/about">About us</a></li><li><a href="/privacy">Privacy</a></li><li><a href="/terms">Terms</a></li></ul><p>© Shelfside</p></footer>
</body></html>`
}

// resultPage renders the books matching q (case-insensitive substring of author or
// title), highlighting the query in the author field.
func resultPage(q string, highlight bool) (string, int) {
	var b strings.Builder
	n := 0
	for _, bk := range shelf {
		hay := strings.ToLower(bk.title + " " + bk.author)
		if !strings.Contains(hay, strings.ToLower(q)) {
			continue
		}
		n++
		author := bk.author
		if highlight {
			if i := strings.Index(strings.ToLower(author), strings.ToLower(q)); i >= 0 {
				author = author[:i] + "<em>" + author[i:i+len(q)] + "</em>" + author[i+len(q):]
			}
		}
		fmt.Fprintf(&b, `<li class="result item-%d"><h3><a href="/book/%d">%s</a></h3><span class="by">by %s</span> <span class="year">%s</span><button>Add to basket</button></li>`+"\n", n, n, bk.title, author, bk.year)
	}
	if n == 0 {
		return chrome(q, `<h1>Search</h1><p class="msg">No results for “`+q+`”. Check the spelling.</p>`), 0
	}
	page := `<h1 class="hits">Results for “` + q + `”</h1><p class="count">` + fmt.Sprint(n) + ` books</p><ul class="results">` + b.String() + `</ul>
<nav class="pager"><a href="?p=1">1</a> <a href="?p=2">2</a> <a href="?p=3">3</a> <a rel="next" href="?p=2">Next ›</a></nav>`
	return chrome(q, page), n
}

// xpathsOf returns the absolute XPaths of the nodes xp selects in page.
func xpathsOf(t *testing.T, page, xp string) []string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := htmlquery.QueryAll(doc, xp)
	if err != nil {
		t.Fatalf("%s: %v", xp, err)
	}
	var out []string
	for _, n := range nodes {
		out = append(out, absXPath(n))
	}
	return out
}

func TestExtractResultPages(t *testing.T) {
	tests := []struct {
		name       string
		queries    []string
		highlight  bool
		wantSource string
	}{
		{"content terms", []string{"dickens", "austen", "bronte", "eliot"}, false, "query"},
		{"highlighted query words", []string{"dickens", "austen", "bronte", "eliot"}, true, "query"},
		{"weak terms fall back to tf-idf", []string{"e", "the", "a"}, false, "tfidf"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var pages []Page
			want := map[string]int{}
			for _, q := range tc.queries {
				h, n := resultPage(q, tc.highlight)
				name := "p-" + q
				pages = append(pages, Page{Name: name, URL: "http://shelf.test/search?q=" + q, HTML: []byte(h), Terms: []string{q}, Kind: "term"})
				want[name] = n
			}
			h, _ := resultPage("xqzvkwpr", false)
			pages = append(pages, Page{Name: "nonsense", HTML: []byte(h), Terms: []string{"xqzvkwpr"}, Kind: KindNonsense})
			h, _ = resultPage("zzyzx", false)
			pages = append(pages, Page{Name: "no-hit", HTML: []byte(h), Terms: []string{"zzyzx"}, Kind: "term"})

			w, recs, err := Extract(t.Context(), pages, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for _, r := range recs {
				got[r.Page]++
				if !strings.Contains(r.XPath, "/ul[1]/li[") {
					t.Errorf("%s: record %s is not a result item", r.Page, r.XPath)
				}
				if len(r.Leaves) < 3 || r.Leaves[0].Path != "li.result/h3/a" || !strings.HasPrefix(r.Leaves[0].Href, "http://shelf.test/book/") {
					t.Errorf("%s: leaves %+v", r.XPath, r.Leaves)
				}
			}
			for name, n := range want {
				if got[name] != n {
					t.Errorf("%s: %d records, want %d", name, got[name], n)
				}
			}
			classes := map[string]string{}
			for _, pc := range w.Pages {
				classes[pc.Page] = pc.Class
				if pc.Sample && pc.SignifierSource != tc.wantSource {
					t.Errorf("%s: signifiers %v from %s, want %s", pc.Page, pc.Signifiers, pc.SignifierSource, tc.wantSource)
				}
			}
			if classes["nonsense"] != ClassError || classes["no-hit"] != ClassError {
				t.Errorf("classes %v: the nonsense and no-hit pages must be error pages", classes)
			}
			if len(w.ErrorPatterns) == 0 || !strings.Contains(w.ErrorPatterns[0].Phrase, "no results for {q}") {
				t.Errorf("error patterns %+v", w.ErrorPatterns)
			}
			tpl := w.Templates[0]
			if strings.Contains(w.XPath, "@dfs") || !tpl.XPathExact {
				t.Errorf("generic XPath %q (exact %v) must select the records without dfs", w.XPath, tpl.XPathExact)
			}
			// the XPath reproduces the records on every result page
			for _, pg := range pages {
				if want[pg.Name] == 0 {
					continue
				}
				if n := len(xpathsOf(t, string(pg.HTML), w.XPath)); n != want[pg.Name] {
					t.Errorf("%s: the wrapper XPath selects %d elements, want %d", pg.Name, n, want[pg.Name])
				}
			}
		})
	}
}

func TestSinglePageNoQuery(t *testing.T) {
	h, n := resultPage("e", false)
	w, recs, err := Extract(t.Context(), []Page{{Name: "one", HTML: []byte(h)}}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != n {
		t.Fatalf("%d records, want %d (xpath %s)", len(recs), n, w.XPath)
	}
}

func TestEchoLeaves(t *testing.T) {
	page := `<html><body><h1>Results for <b>Dickens</b></h1><div class="crumb">dickens</div>
<ul><li><span class="a">Charles <em>Dickens</em></span></li><li><span class="a">Dickens</span></li></ul></body></html>`
	p, err := parsePage("x", []byte(page), false)
	if err != nil {
		t.Fatal(err)
	}
	s := &sample{p: p, types: typeHashes(p, DefaultTypeAttributes), names: DefaultTypeAttributes}
	echo := echoLeaves(s, []string{"Dickens"}, map[string]bool{"results": true})
	var echoed []string
	for li := range p.leaves {
		if echo[int32(li)] {
			echoed = append(echoed, absXPath(p.elems[p.leaves[li].elem].n)+"="+p.leaves[li].text)
		}
	}
	want := []string{"/html[1]/body[1]/h1[1]/b[1]=Dickens", "/html[1]/body[1]/div[1]=dickens"}
	if strings.Join(echoed, " ") != strings.Join(want, " ") {
		t.Errorf("echo leaves %v, want %v (record fields and highlighted words are no echo)", echoed, want)
	}
}

func TestTFIDF(t *testing.T) {
	mk := func(text string) *page {
		p, err := parsePage("x", []byte("<body><p>"+text+"</p></body>"), false)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	pages := []*page{mk("home home dickens dickens bleak the"), mk("home austen austen emma"), mk("home eliot")}
	got := tfidf(pages, 10)
	if strings.Join(got[0], " ") != "dickens bleak" {
		t.Errorf("page 1 signifiers %v, want [dickens bleak] (home is everywhere, the is a stop word)", got[0])
	}
	if strings.Join(got[2], " ") != "eliot" {
		t.Errorf("page 3 signifiers %v", got[2])
	}
}

func TestLayoutClusters(t *testing.T) {
	var seqs [][]block
	for _, q := range []string{"dickens", "austen", "e"} {
		h, _ := resultPage(q, false)
		p, _ := parsePage(q, []byte(h), false)
		seqs = append(seqs, layoutBlocks(p))
	}
	h, _ := resultPage("xqzvkwpr", false)
	p, _ := parsePage("err", []byte(h), false)
	seqs = append(seqs, layoutBlocks(p))
	if s := layoutSimilarity(seqs[0], seqs[0]); s != 1 {
		t.Errorf("self-similarity %g", s)
	}
	ids := clusterLayouts(seqs, DefaultOptions().LayoutThreshold)
	if ids[0] != ids[1] || ids[0] != ids[2] || ids[3] == ids[0] {
		t.Errorf("clusters %v: the result pages belong together, the error page apart", ids)
	}
}

func TestXPathShapes(t *testing.T) {
	// The XPath shapes FOREST emits or users write against its output (go-libraries.md
	// §3), evaluated with htmlquery.QueryAll, never Find.
	page := `<html><body><div class="story wrapper-02"><p>a</p></div><ul><li class="r">1</li><li class="r">2</li></ul>
<table><tr><td>Author</td><td>Dickens</td></tr><tr><td>Year</td><td>1861</td></tr></table></body></html>`
	tests := []struct {
		xp   string
		want int
	}{
		{"//div[contains(@class,'story')]", 1},
		{"//div[contains(concat(' ',normalize-space(@class),' '),' story ')]", 1},
		{"(//li[@class='r'])[2]", 1},
		{"//tr[td[1]='Author']/td[2]", 1},
		{"//td[.='Year']/following-sibling::td[1]", 1},
		{"//table/tbody/tr[td]", 2}, // the parser inserts tbody
		{"//li[normalize-space(.)!='' or .//img]", 2},
	}
	for _, tc := range tests {
		if n := len(xpathsOf(t, page, tc.xp)); n != tc.want {
			t.Errorf("%s selects %d, want %d", tc.xp, n, tc.want)
		}
	}
	if _, err := htmlquery.QueryAll(&html.Node{Type: html.DocumentNode}, "//li["); err == nil {
		t.Error("a bad XPath must give an error, not a panic")
	}
}

func TestSegmentLeaves(t *testing.T) {
	page := `<html><body><table class="t"><tr><td><a href="/b/1">Bleak House</a></td><td>Dickens</td><td><img src="c.jpg" alt="cover"></td></tr>
<tr><td><a href="/b/2">Emma</a></td><td>Austen</td><td><img src="d.jpg" alt="cover"></td></tr></table></body></html>`
	p, err := parsePage("x", []byte(page), false)
	if err != nil {
		t.Fatal(err)
	}
	var rows []int32
	for i := range p.elems {
		if p.elems[i].tag == "tr" {
			rows = append(rows, int32(i))
		}
	}
	base, _ := urlParse("http://lib.test/search?q=x")
	recs := segment(p, rows, nil, base)
	if len(recs) != 2 || recs[1].XPath != "/html[1]/body[1]/table[1]/tbody[1]/tr[2]" {
		t.Fatalf("records %+v", recs)
	}
	got := recs[0].Leaves
	want := []Leaf{
		{Path: "tr/td[1]/a", Text: "Bleak House", Href: "http://lib.test/b/1"},
		{Path: "tr/td[2]", Text: "Dickens"},
		{Path: "tr/td[3]/img", Src: "http://lib.test/c.jpg", Alt: "cover"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("leaves\n got %+v\nwant %+v", got, want)
	}
}

func TestArticleMode(t *testing.T) {
	// The thesis's setting: pages of one blog template, one article each; tf-idf
	// signifiers; the main block is the top pattern.
	texts := []string{
		"The comet returned after seventy years and astronomers tracked the comet across the northern sky with telescopes",
		"Bakers in the old town revived sourdough recipes using rye flour and slow fermentation in stone ovens",
		"The river flooded the valley after storms and farmers moved cattle to the hills while engineers repaired levees",
	}
	var pages []Page
	for i, tx := range texts {
		h := `<html><body><div id="top"><a href="/">Blog</a> <a href="/archive">Archive</a></div>
<div id="container"><div class="post wrapper-0` + fmt.Sprint(i) + `"><h2>Post ` + fmt.Sprint(i) + `</h2><p>` + tx + `</p><p>` + tx + `</p></div>
<div class="comments"><p>Nice post</p><p>Thanks for sharing</p></div></div>
<div id="foot">Copyright blog, all rights reserved, powered by a content management system</div></body></html>`
		pages = append(pages, Page{Name: fmt.Sprint(i), HTML: []byte(h)})
	}
	o := DefaultOptions()
	o.Mode = ModeArticle
	w, recs, err := Extract(t.Context(), pages, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 {
		t.Fatalf("%d blocks, want one per page; wrapper %+v", len(recs), w.Templates)
	}
	for _, r := range recs {
		if !strings.HasSuffix(r.XPath, "/div[2]/div[1]") {
			t.Errorf("%s: main block %s, want the post", r.Page, r.XPath)
		}
	}
	if !strings.HasPrefix(w.Templates[0].ForestXPath, "//div[contains(@class,'post')") {
		t.Errorf("thesis wrapper %q", w.Templates[0].ForestXPath)
	}
}

func TestBadInput(t *testing.T) {
	good, _ := resultPage("dickens", false)
	many := make([]Page, 2000)
	for i := range many {
		many[i] = Page{Name: fmt.Sprint(i), HTML: []byte(`<ul><li><b>title ` + fmt.Sprint(i) + `</b> <i>w` + fmt.Sprint(i) + `</i></li><li><b>other</b> <i>note</i></li></ul>`)}
	}
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		pages   []Page
		opts    func(*Options)
		wantErr error
		check   func(t *testing.T, w *Wrapper, recs []Record)
	}{
		{name: "no pages", pages: nil, wantErr: ErrNoPages},
		{name: "bad options", pages: []Page{{Name: "a", HTML: []byte(good)}}, opts: func(o *Options) { o.TopK = 0 }, wantErr: ErrBadOptions},
		{name: "cancelled", ctx: cancelled, pages: []Page{{Name: "a", HTML: []byte(good)}}, wantErr: context.Canceled},
		{name: "binary input", pages: []Page{{Name: "bin", HTML: []byte("\x00\x01\x00\x02\x00\x00\x00\x03")}}, wantErr: ErrNoUsablePage},
		{name: "oversized page", pages: []Page{{Name: "big", HTML: []byte(good)}}, opts: func(o *Options) { o.MaxPageBytes = 100 }, wantErr: ErrNoUsablePage},
		{name: "empty page", pages: []Page{{Name: "empty", HTML: nil}}, check: func(t *testing.T, w *Wrapper, recs []Record) {
			if len(recs) != 0 || w.Pages[0].Class != ClassEmpty || w.Pages[0].Reason == "" {
				t.Errorf("empty page: %d records, class %+v", len(recs), w.Pages[0])
			}
		}},
		{name: "broken markup", pages: []Page{{Name: "broken", HTML: []byte(`<ul><li><b>one<li>two</i><li>three<table><tr><td>x</ul>`)}}, check: func(t *testing.T, w *Wrapper, recs []Record) {
			if w.Pages[0].Class == ClassInvalid {
				t.Errorf("broken markup is still HTML: %+v", w.Pages[0])
			}
		}},
		{name: "no signifier", pages: []Page{{Name: "a", HTML: []byte("<p>the a of</p>")}, {Name: "b", HTML: []byte("<p>the a of</p>")}}, check: func(t *testing.T, w *Wrapper, recs []Record) {
			if len(recs) != 0 || !strings.Contains(w.Templates[0].Reason, "no signifier") {
				t.Errorf("pages without signifier: %d records, reason %q", len(recs), w.Templates[0].Reason)
			}
		}},
		{name: "one unreadable page among good ones", pages: []Page{{Name: "bin", HTML: []byte("\x00\x00\x00\x00")}, {Name: "good", HTML: []byte(good), Terms: []string{"dickens"}}}, check: func(t *testing.T, w *Wrapper, recs []Record) {
			if w.Pages[0].Class != ClassInvalid || len(recs) != 4 {
				t.Errorf("classes %+v, %d records", w.Pages, len(recs))
			}
		}},
		{name: "thousands of pages", pages: many, check: func(t *testing.T, w *Wrapper, recs []Record) {
			if len(w.Pages) != len(many) || len(recs) == 0 {
				t.Errorf("%d page classes, %d records", len(w.Pages), len(recs))
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			if tc.opts != nil {
				tc.opts(&o)
			}
			ctx := tc.ctx
			if ctx == nil {
				ctx = t.Context()
			}
			w, recs, err := Extract(ctx, tc.pages, o)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, w, recs)
		})
	}
}

func urlParse(s string) (*url.URL, error) { return url.Parse(s) }

func TestRecordsSpanningSiblings(t *testing.T) {
	// distinct terms and definitions, as in a real glossary (items that differ only by
	// their numbers are a repeated widget, not records)
	words := []string{"anchor", "beacon", "quay", "tide", "mooring", "pilot", "ferry", "buoy"}
	uses := []string{"at dawn", "in a storm", "for cargo", "near the pier", "by night"}
	dl := func(q string, n int) string {
		var b strings.Builder
		b.WriteString(`<html><body><h1>Glossary: ` + q + `</h1><dl class="terms">`)
		for i := range n {
			fmt.Fprintf(&b, `<dt class="term">%s %s</dt><dd class="def">How a %s %s is used %s, with an example.</dd>`,
				q, words[i], words[i], q, uses[i%len(uses)])
		}
		b.WriteString(`</dl><p class="foot">End of list</p></body></html>`)
		return b.String()
	}
	pages := []Page{
		{Name: "a", HTML: []byte(dl("harbour", 5)), Terms: []string{"harbour"}},
		{Name: "b", HTML: []byte(dl("lantern", 3)), Terms: []string{"lantern"}},
	}
	w, recs, err := Extract(t.Context(), pages, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 8 {
		t.Fatalf("%d records, want 8 (one per dt/dd pair); wrapper %+v", len(recs), w.Templates)
	}
	for _, r := range recs {
		if !strings.Contains(r.XPath, "/dt[") || len(r.Extra) != 1 || !strings.Contains(r.Extra[0], "/dd[") || len(r.Leaves) != 2 {
			t.Errorf("record %+v: want the dt with its dd", r)
		}
	}
	if len(w.Templates[0].Siblings) != 1 {
		t.Errorf("siblings %v", w.Templates[0].Siblings)
	}

	// Every region, cards drawn as a thumbnail and a details block of the same make-up:
	// the two are patterns of the same kind, both selected, each taking the other as
	// its sibling run; each pair is still one record, returned once.
	cards := func(q string, n int) string {
		var b strings.Builder
		b.WriteString(`<html><body><h1>Glossary: ` + q + `</h1><div class="grid">`)
		for i := range n {
			fmt.Fprintf(&b, `<div class="thumb"><a href="/t/%d"><img src="/i/%d.png"><span class="title">%s %s</span></a> <span class="price">$%d</span></div>`+
				`<div class="details"><div><h3>%s %s</h3><p>How a %s %s is used %s.</p></div></div>`,
				i, i, q, words[i], 10+i, q, words[i], words[i], q, uses[i%len(uses)])
		}
		b.WriteString(`</div><p class="foot">End of list</p></body></html>`)
		return b.String()
	}
	pages = []Page{
		{Name: "a", HTML: []byte(cards("harbour", 5)), Terms: []string{"harbour"}},
		{Name: "b", HTML: []byte(cards("lantern", 3)), Terms: []string{"lantern"}},
	}
	o := DefaultOptions()
	o.Regions = RegionsAll
	w, recs, err = Extract(t.Context(), pages, o)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range recs {
		seen[r.Page+" "+r.XPath]++
	}
	if len(recs) != 8 || len(seen) != 8 {
		t.Errorf("every region: %d records at %d places, want the 8 pairs once each (xpath %s, siblings %v)", len(recs), len(seen), w.XPath, w.Templates[0].Siblings)
	}
}

// TestRecordsInParallelTables checks records drawn as two tables side by side (a
// frozen first column): row k of both tables is one record.
func TestRecordsInParallelTables(t *testing.T) {
	clubs := []string{"Harbour Rovers", "Quay United", "Lantern Athletic", "Tide Wanderers", "Pier Albion"}
	page := func(q string, n int) string {
		var left, right strings.Builder
		for i := range n {
			fmt.Fprintf(&left, `<tr class="row"><td>%d</td><td>%s %s</td></tr>`, i+1, clubs[i], q)
			fmt.Fprintf(&right, `<tr class="row"><td>%d points</td><td>%d wins</td><td>%d goals for %s</td></tr>`, 30-i, 9-i, 40-2*i, clubs[i])
		}
		return `<html><body><h1>Standings: ` + q + `</h1><div class="scroll"><table class="fixed"><thead><tr><th>Club</th></tr></thead><tbody>` +
			left.String() + `</tbody></table><table class="stats"><thead><tr><th>Pts</th><th>W</th><th>GF</th></tr></thead><tbody>` +
			right.String() + `</tbody></table></div></body></html>`
	}
	pages := []Page{
		{Name: "a", HTML: []byte(page("league", 5)), Terms: []string{"league"}},
		{Name: "b", HTML: []byte(page("cup", 4)), Terms: []string{"cup"}},
	}
	w, recs, err := Extract(t.Context(), pages, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 9 {
		t.Fatalf("%d records, want 9 (one per row pair); wrapper %+v", len(recs), w.Templates)
	}
	for _, r := range recs {
		if !strings.Contains(r.XPath, "/table[1]/") || len(r.Extra) != 1 || !strings.Contains(r.Extra[0], "/table[2]/") {
			t.Errorf("record %s %v: want the row of table 1 with the row of table 2", r.XPath, r.Extra)
		}
		if strings.Contains(r.XPath, "/tr[") && r.Extra != nil && r.XPath[strings.LastIndex(r.XPath, "["):] != r.Extra[0][strings.LastIndex(r.Extra[0], "["):] {
			t.Errorf("record %s %v: rows of different index", r.XPath, r.Extra)
		}
	}
}

// TestParsedCacheBudget checks that re-parsing pages past the cache budget (thousands
// of pages) gives the same wrapper and records as keeping them all parsed.
func TestParsedCacheBudget(t *testing.T) {
	var pages []Page
	for _, q := range []string{"dickens", "austen", "bronte", "eliot", "xqzvkwpr"} {
		h, _ := resultPage(q, true)
		kind := "term"
		if q == "xqzvkwpr" {
			kind = KindNonsense
		}
		pages = append(pages, Page{Name: q, HTML: []byte(h), Terms: []string{q}, Kind: kind})
	}
	run := func(budget int) (string, string) {
		o := DefaultOptions()
		o.ParsedCacheBytes = budget
		w, recs, err := Extract(t.Context(), pages, o)
		if err != nil {
			t.Fatal(err)
		}
		return w.XPath + fmt.Sprint(w.Pages), fmt.Sprint(recs)
	}
	w1, r1 := run(DefaultOptions().ParsedCacheBytes)
	w0, r0 := run(0)
	if w0 != w1 || r0 != r1 {
		t.Errorf("without the parse cache the result differs:\n%s\n%s", w0, w1)
	}
}

// TestPathNames checks which ids stay in type paths: a tbody beside a section with
// another id loses it, a lone named tbody and other named siblings keep theirs.
func TestPathNames(t *testing.T) {
	tests := []struct {
		name, body, tag string
		want            []string // type path step of each element with tag, in order
	}{
		{"named table sections", `<table><tbody id="price"><tr><td>1</td></tr></tbody><tbody id="rating"><tr><td>2</td></tr></tbody></table>`,
			"tbody", []string{"tbody", "tbody"}},
		{"a named section beside an unnamed one", `<table><tbody id="price"><tr><td>1</td></tr></tbody><tbody><tr><td>2</td></tr></tbody></table>`,
			"tbody", []string{"tbody", "tbody"}},
		{"sections named alike and another", `<table><tbody id="part-1"><tr><td>1</td></tr></tbody><tbody id="part-2"><tr><td>2</td></tr></tbody><tbody id="price"><tr><td>3</td></tr></tbody></table>`,
			"tbody", []string{"tbody", "tbody", "tbody"}},
		{"sections named alike", `<table><tbody id="part-1"><tr><td>1</td></tr></tbody><tbody id="part-2"><tr><td>2</td></tr></tbody></table>`,
			"tbody", []string{"tbody[@id='part']", "tbody[@id='part']"}},
		{"a lone named section", `<table><tbody id="price"><tr><td>1</td></tr></tbody></table>`,
			"tbody", []string{"tbody[@id='price']"}},
		{"named regions", `<div id="results"><p>a</p></div><div id="sidebar"><p>b</p></div>`,
			"div", []string{"div[@id='results']", "div[@id='sidebar']"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parsePage("p", []byte(`<html><body>`+tc.body+`</body></html>`), false)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for i := range p.elems {
				if n := p.elems[i].n; n.Data == tc.tag {
					got = append(got, recordType(n, DefaultTypeAttributes))
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("types %v, want %v", got, tc.want)
			}
		})
	}
}

// checkRecordSuffixes checks that the records' XPaths end, in order, with the
// suffixes in want, and shows the ranking when their number differs.
func checkRecordSuffixes(t *testing.T, w *Wrapper, recs []Record, want []string) {
	t.Helper()
	var got []string
	for _, r := range recs {
		got = append(got, r.XPath)
	}
	if len(got) != len(want) {
		t.Fatalf("records %v, want %d ending in %v; ranking %+v", got, len(want), want, w.Templates[0].Ranking)
	}
	for k, suffix := range want {
		if !strings.HasSuffix(got[k], suffix) {
			t.Errorf("record %d = %s, want …%s", k, got[k], suffix)
		}
	}
}

// TestTypeHash checks that the type-path hash computed without strings is the hash of
// the written type path (typePath, hashTypePath), as Apply recomputes it from a
// wrapper's rules.
func TestTypeHash(t *testing.T) {
	page := `<html><body id="top" class="home page-12"><table id="t"><tbody id="a1"><tr role="row" class=" x9 y"><td itemprop="name" class="c">a</td></tr></tbody>` +
		`<tbody id="b"><tr><td>b</td></tr></tbody></table><div class="12" id="main" itemtype="http://schema.org/Book" data-x="1"><p>c</p></div></body></html>`
	p, err := parsePage("p", []byte(page), false)
	if err != nil {
		t.Fatal(err)
	}
	// chainHash is FNV-1a over the parent's hash (8 bytes, little-endian) and the type,
	// as written wrappers were hashed
	for _, parent := range []uint64{0, 1, 0xdeadbeef12345678} {
		h := fnv.New64a()
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], parent)
		h.Write(b[:])
		h.Write([]byte("div[@class='x']"))
		if got := chainHash(parent, "div[@class='x']"); got != h.Sum64() {
			t.Errorf("chainHash(%x) = %x, want %x", parent, got, h.Sum64())
		}
	}
	hs := typeHashes(p, DefaultTypeAttributes)
	for i := range p.elems {
		if want := hashTypePath(typePath(p, int32(i), DefaultTypeAttributes)); hs[i] != want {
			t.Errorf("element %d (%s): hash %x, want %x of %v", i, p.elems[i].tag, hs[i], want, typePath(p, int32(i), DefaultTypeAttributes))
		}
	}
}

// TestCollapse checks the white-space collapsing of text leaves, with and without the
// fast path for text that is collapsed already.
func TestCollapse(t *testing.T) {
	for in, want := range map[string]string{
		"":                           "",
		"Bleak House":                "Bleak House",
		" Bleak House":               "Bleak House",
		"Bleak  House\n":             "Bleak House",
		"Bleak\tHouse":               "Bleak House",
		"Bleak\u00a0House":           "Bleak House",
		"Jane Eyre — 1847":           "Jane Eyre — 1847",
		"\u00a0\u00a0Jane\u2003Eyre": "Jane Eyre",
		"   ":                        "",
	} {
		if got := collapse(in); got != want {
			t.Errorf("collapse(%q) = %q, want %q", in, got, want)
		}
	}
}
