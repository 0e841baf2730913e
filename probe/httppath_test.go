package probe

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding/charmap"

	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/records"
)

func TestFormURL(t *testing.T) {
	f := Form{PageURL: "http://127.0.0.1:1/shop/", Action: "search?x=1#top", Method: "GET", Fields: []Field{
		{Name: "q", Type: "search"},
		{Name: "lang", Type: "select", Options: []Option{{Value: "", Text: "any"}, {Value: "en", Text: "English", Selected: true}}},
		{Name: "sort", Type: "select", Options: []Option{{Value: "x", Disabled: true}, {Value: "pop"}}},
		{Name: "kind", Type: "radio", Value: "book", Checked: true},
		{Name: "kind", Type: "radio", Value: "film"},
		{Name: "new", Type: "checkbox", Checked: true},
		{Name: "token", Type: "hidden", Value: "a b&c"},
		{Name: "off", Type: "text", Disabled: true},
		{Name: "go", Type: "submit", Value: "Search", Submit: true},
	}}
	got, err := formURL(f, map[string]string{"q": "war & peace", "kind": "film"}, [2]string{})
	if err != nil {
		t.Fatal(err)
	}
	want := "http://127.0.0.1:1/shop/search?q=war+%26+peace&lang=en&sort=pop&kind=film&new=on&token=a+b%26c"
	if got != want {
		t.Errorf("formURL = %s\nwant      %s", got, want)
	}
	if !sameQuery(got, "http://127.0.0.1:1/shop/search?token=a+b%26c&kind=film&new=on&sort=pop&lang=en&q=war+%26+peace") {
		t.Error("sameQuery: the order of parameters must not matter")
	}
	if sameQuery(got, "http://127.0.0.1:1/shop/search?q=war") {
		t.Error("sameQuery: different queries are equal")
	}
	kv, ok := submitPair(f, got, got+"&go=Search")
	if !ok || kv != [2]string{"go", "Search"} {
		t.Errorf("submitPair = %v, %v", kv, ok)
	}
	f.Fields[5].Name = "box"
	if _, err := formURL(f, map[string]string{"box": "on"}, [2]string{}); err == nil {
		t.Error("an assigned checkbox must be left to the browser")
	}
}

func TestNextLink(t *testing.T) {
	for _, tc := range []struct{ name, html, want string }{
		{"rel", `<a href="?p=1">1</a><a rel="next" href="?p=2">2</a>`, "http://h/s?p=2"},
		{"text", `<a href="/s?p=0">« Previous</a> <a href="/s?p=2"> Next › </a>`, "http://h/s?p=2"},
		{"arrow", `<a href="p3.html">»</a>`, "http://h/p3.html"},
		{"french", `<a href="/r?page=2">Page suivante</a>`, "http://h/r?page=2"},
		{"none", `<a href="/about">About</a><a href="javascript:next()">Next</a><a href="/x"><img src=a.png></a>`, ""},
		{"head link", `<LINK REL="Next" HREF="/s?p=2&amp;q=a"/>`, "http://h/s?p=2&q=a"},
		{"unquoted, upper case", `<A class=pager HREF=/s?p=2>NEXT</A>`, "http://h/s?p=2"},
		{"single quotes, entity", `<a title='go &gt;' href='/s?p=2&amp;x=1'><span>Next</span>&nbsp;&raquo;</a>`, "http://h/s?p=2&x=1"},
		{"comment and script", `<!-- <a rel="next" href="/old"> --><script>var s = '<a rel="next" href="/js">';</script><a href="/s?p=2">next</a>`, "http://h/s?p=2"},
		{"rel wins over text", `<a href="/t">Next</a><a rel="nofollow next" href="/r">2</a>`, "http://h/r"},
		{"no end tag: the text runs on", `<a href="/s?p=2">Next<p>` + strings.Repeat("x ", 2000), ""},
		{"text over an end", `<a href="/a">Next page</a>`, "http://h/a"},
		{"two links", `<a href="/a">more<a href="/b">next</a>`, "http://h/b"},
	} {
		pg := Page{URL: "http://h/s?p=1", HTML: "<html><body>" + tc.html + "</body></html>"}
		got, ok := nextLink(pg)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%s: nextLink = %q, %v; want %q", tc.name, got, ok, tc.want)
		}
		if want, _ := nextLinkParsed(pg); want != tc.want {
			t.Errorf("%s: the parsed document's next link is %q, the case wants %q", tc.name, want, tc.want)
		}
	}
}

// TestRecordMarker: on the result pages of the local GET test sites, the record marker
// learnt from FOREST's records occurs once per record, and on a page without results
// not at all; nextLink finds the pages' next links without parsing the document.
func TestRecordMarker(t *testing.T) {
	for _, name := range []string{"bookshop", "catalogue", "portal", "demo"} {
		t.Run(name, func(t *testing.T) {
			s, _ := testsites.ByName(name)
			if name == "demo" {
				s = testsites.Demo()
			}
			srv := s.NewServer()
			defer srv.Close()
			get := func(u string) Page {
				resp, err := http.Get(u)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, err := io.ReadAll(resp.Body)
				if err != nil {
					t.Fatal(err)
				}
				return Page{URL: resp.Request.URL.String(), HTML: string(b)}
			}
			form := get(srv.URL + s.FormPath)
			doc, err := ReadHTML(strings.NewReader(form.HTML), "text/html")
			if err != nil {
				t.Fatal(err)
			}
			forms, err := ParseForms(doc, form.URL)
			if err != nil || len(forms) == 0 {
				t.Fatalf("forms of %s: %v", form.URL, err)
			}
			kw := s.Fields[0].Name
			k := slices.IndexFunc(forms, func(f Form) bool {
				return slices.ContainsFunc(f.Fields, func(fd Field) bool { return fd.Name == kw })
			})
			if k < 0 {
				t.Fatalf("no form of %s has the field %q", form.URL, kw)
			}
			f := forms[k]
			var pages []Page
			var rp []records.Page
			for i, q := range []string{"the", "e", "a", "qzxqzxq"} {
				u, err := formURL(f, map[string]string{kw: q}, [2]string{})
				if err != nil {
					t.Fatal(err)
				}
				pg := get(u)
				pages = append(pages, pg)
				kind := KindStopword
				if i == 3 {
					kind = records.KindNonsense
				}
				rp = append(rp, records.Page{Name: fmt.Sprint(i), URL: pg.URL, HTML: []byte(pg.HTML), Kind: kind, Terms: []string{q}})
			}
			w, _, err := records.Extract(t.Context(), rp, records.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			a, err := records.NewApplier(w, records.DefaultApplyOptions())
			if err != nil {
				t.Fatal(err)
			}
			cmp := wrapperComparer{a}
			marker := ""
			for i, pg := range pages[:3] {
				recs := cmp.Records(t.Context(), pg)
				m := recordMarker(pg.HTML, recs)
				if len(recs) == 0 || m == "" {
					t.Fatalf("page %d (%s): %d records, marker %q\n%.600s", i, pg.URL, len(recs), m, pg.HTML)
				}
				if n := strings.Count(pg.HTML, m); n != len(recs) {
					t.Errorf("page %d: marker %q occurs %d times for %d records", i, m, n, len(recs))
				}
				if marker != "" && m != marker {
					t.Errorf("page %d: marker %q, page 0 had %q", i, m, marker)
				}
				marker = m
				next, ok := nextLink(pg)
				want, wok := nextLinkParsed(pg)
				if next != want || ok != wok || !ok && name != "catalogue" { // catalogue has one page of results
					t.Errorf("page %d: next link %q, %v; from the parsed document %q, %v", i, next, ok, want, wok)
				}
			}
			if n := strings.Count(pages[3].HTML, marker); n != 0 {
				t.Errorf("the page without results has the marker %q %d times", marker, n)
			}
			t.Logf("marker %q", marker)
		})
	}
}

// nextLinkParsed is nextLink on the parsed document, the oracle of the tests.
func nextLinkParsed(pg Page) (string, bool) {
	doc, err := html.Parse(strings.NewReader(pg.HTML))
	if err != nil {
		return "", false
	}
	base, _ := url.Parse(pg.URL)
	var byRel, byText string
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode || (n.Data != "a" && n.Data != "link") {
			continue
		}
		href, rel := "", ""
		for _, a := range n.Attr {
			switch a.Key {
			case "href":
				href = a.Val
			case "rel":
				rel = strings.ToLower(a.Val)
			}
		}
		if href == "" || strings.HasPrefix(href, "javascript:") || strings.HasPrefix(href, "#") {
			continue
		}
		if byRel == "" && slices.Contains(strings.Fields(rel), "next") {
			byRel = href
		}
		if byText == "" && n.Data == "a" {
			var b strings.Builder
			for d := range n.Descendants() {
				if d.Type == html.TextNode {
					b.WriteString(d.Data)
				}
			}
			if isNextText(strings.ToLower(strings.Join(strings.Fields(b.String()), " "))) {
				byText = href
			}
		}
	}
	href := cmpOr(byRel, byText)
	if href == "" {
		return "", false
	}
	u, err := base.Parse(href)
	if err != nil {
		return "", false
	}
	return u.String(), true
}

// TestDecodeHTML: a page over HTTP is decoded by its header's charset, else its meta
// tag; UTF-8 is kept as it is.
func TestDecodeHTML(t *testing.T) {
	latin, err := charmap.ISO8859_1.NewEncoder().String("Réservé")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, body, ct, want string }{
		{"utf-8", "<p>Réservé", "text/html; charset=utf-8", "<p>Réservé"},
		{"latin-1 by header", "<p>" + latin, "text/html; charset=iso-8859-1", "<p>Réservé"},
		{"latin-1 by meta", `<meta charset="iso-8859-1"><p>` + latin, "text/html", `<meta charset="iso-8859-1"><p>Réservé`},
	} {
		got, err := decodeHTML([]byte(tc.body), tc.ct)
		if err != nil || got != tc.want {
			t.Errorf("%s: decodeHTML = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

// countingComparer finds the elements with data-r as records (absolute XPaths from the
// parsed page) and counts its calls.
type countingComparer struct{ calls *int }

func (c countingComparer) Same(context.Context, Page, Page) (bool, string) { return true, "" }
func (c countingComparer) Records(_ context.Context, pg Page) []string {
	*c.calls++
	doc, err := html.Parse(strings.NewReader(pg.HTML))
	if err != nil {
		return nil
	}
	var out []string
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && slices.ContainsFunc(n.Attr, func(a html.Attribute) bool { return a.Key == "data-r" }) {
			out = append(out, absPath(n))
		}
	}
	return out
}

// absPath is the absolute, index-qualified XPath of an element.
func absPath(n *html.Node) string {
	var steps []string
	for ; n != nil && n.Type == html.ElementNode; n = n.Parent {
		k := 1
		for s := n.PrevSibling; s != nil; s = s.PrevSibling {
			if s.Type == html.ElementNode && s.Data == n.Data {
				k++
			}
		}
		steps = append([]string{fmt.Sprintf("%s[%d]", n.Data, k)}, steps...)
	}
	return "/" + strings.Join(steps, "/")
}

// TestLearnMarker: the record marker is used only when it occurs once per record on
// every check page and is the same on all of them; otherwise pages are tested by the
// wrapper (the comparer), and a page is never taken for results on a marker that also
// opens elements outside the records.
func TestLearnMarker(t *testing.T) {
	page := func(items ...string) Page {
		return Page{URL: "http://h/s", HTML: "<html><body><ul>" + strings.Join(items, "") + "</ul></body></html>"}
	}
	rec := func(id string) string { return `<li class="r" data-r="` + id + `">` + id + `</li>` }
	ctx := t.Context()
	newPath := func() (*httpPath, *int) {
		calls := 0
		return &httpPath{p: &Prober{log: DefaultOptions().logger()}, cmp: countingComparer{&calls}}, &calls
	}

	t.Run("learnt", func(t *testing.T) {
		h, calls := newPath()
		for _, pg := range []Page{page(rec("a"), rec("b")), page(rec("c"), rec("d"), rec("e"))} {
			h.learnMarker(pg, h.cmp.Records(ctx, pg))
		}
		if h.marker != `<li class="r" data-r="` || h.markerBad {
			t.Fatalf("marker %q (bad %v), want %q", h.marker, h.markerBad, `<li class="r" data-r="`)
		}
		*calls = 0
		if !h.hasRecords(ctx, page(rec("f"))) || h.hasRecords(ctx, page(`<li class="r">no results</li>`)) {
			t.Error("hasRecords by the marker: wrong answer")
		}
		if *calls != 0 {
			t.Errorf("the wrapper ran %d times with a marker learnt", *calls)
		}
	})
	t.Run("marker outside the records", func(t *testing.T) {
		h, calls := newPath()
		// The same start tag opens a record and, on another element, no record.
		pg := page(rec("a"), rec("b"), `<li class="r" data-r="x" hidden></li>`)
		recs := h.cmp.Records(ctx, pg)[:2]
		h.learnMarker(pg, recs)
		if !h.markerBad || h.marker != "" {
			t.Fatalf("marker %q (bad %v) although it occurs 3 times for 2 records", h.marker, h.markerBad)
		}
		*calls = 0
		h.hasRecords(ctx, page(rec("c")))
		if *calls != 1 {
			t.Errorf("the wrapper ran %d times, want 1 (no marker)", *calls)
		}
	})
	t.Run("check pages disagree", func(t *testing.T) {
		h, _ := newPath()
		h.learnMarker(page(rec("a"), rec("b")), h.cmp.Records(ctx, page(rec("a"), rec("b"))))
		other := page(`<li class="s" data-r="c">c</li>`, `<li class="s" data-r="d">d</li>`)
		h.learnMarker(other, h.cmp.Records(ctx, other))
		if !h.markerBad || h.marker != "" {
			t.Errorf("marker %q (bad %v) after two check pages with different markers", h.marker, h.markerBad)
		}
		// and once bad, a good page does not bring it back
		h.learnMarker(page(rec("e"), rec("f")), h.cmp.Records(ctx, page(rec("e"), rec("f"))))
		if !h.markerBad || h.marker != "" {
			t.Errorf("marker %q (bad %v) came back", h.marker, h.markerBad)
		}
	})
	t.Run("records differ in element", func(t *testing.T) {
		pg := page(`<li data-r="a">a</li>`, `<p data-r="b">b</p>`)
		if m := recordMarker(pg.HTML, countingComparer{new(int)}.Records(ctx, pg)); m != "" {
			t.Errorf("marker %q for records of two element names", m)
		}
	})
}
