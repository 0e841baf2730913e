package records

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/internal/textnorm"

	"github.com/trawl-dev/trawl/records/internal/benchmark"
)

// The local test sites (internal/testsites) mark every true record with data-record.
// These tests submit each server-rendered site's search form the way the prober does
// (content terms from the catalogue, a stop word, a single letter, a nonsense word,
// plus the second result page of the first term), strip the markers, run Extract on
// the pages of the site, and score the extracted record XPaths against the marked
// elements of the unstripped pages.

// siteProbe is one submission: its terms, kind and result pages (markers kept).
type siteProbe struct {
	terms []string
	kind  string
	pages []sitePage
}

type sitePage struct {
	url  string
	html []byte
}

// siteClient submits a site's search form like a browser would: it keeps cookies,
// copies hidden inputs (CSRF tokens) and sends the form with its method.
type siteClient struct {
	t    testing.TB
	base string
	site *testsites.Site
	http *http.Client
}

func newSiteClient(t testing.TB, s *testsites.Site, base string) *siteClient {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &siteClient{t: t, base: base, site: s, http: &http.Client{Jar: jar}}
}

func (c *siteClient) get(u string) []byte {
	c.t.Helper()
	resp, err := c.http.Get(u)
	if err != nil {
		c.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return b
}

// submit fills the keyword field of the search form with q and returns the first
// result page, following one rel=next link when next is set.
func (c *siteClient) submit(q string, next bool) []sitePage {
	c.t.Helper()
	formURL := c.base + c.site.FormPath
	doc, err := html.Parse(bytes.NewReader(c.get(formURL)))
	if err != nil {
		c.t.Fatal(err)
	}
	var kw string
	for _, f := range c.site.Fields {
		if f.Keyword {
			kw = f.Name
		}
	}
	form := findForm(doc, kw)
	if form == nil {
		c.t.Fatalf("%s: no form with field %q", formURL, kw)
	}
	vals := url.Values{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "input" {
			switch attr(n, "type") {
			case "hidden":
				vals.Set(attr(n, "name"), attr(n, "value"))
			}
		}
		for k := n.FirstChild; k != nil; k = k.NextSibling {
			walk(k)
		}
	}
	walk(form)
	vals.Set(kw, q)
	action, err := url.Parse(formURL)
	if err != nil {
		c.t.Fatal(err)
	}
	if a := attr(form, "action"); a != "" {
		ref, _ := url.Parse(a)
		action = action.ResolveReference(ref)
	}
	var resp *http.Response
	if strings.EqualFold(attr(form, "method"), "post") {
		resp, err = c.http.PostForm(action.String(), vals)
	} else {
		action.RawQuery = vals.Encode()
		resp, err = c.http.Get(action.String())
	}
	if err != nil {
		c.t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		c.t.Fatal(err)
	}
	out := []sitePage{{url: resp.Request.URL.String(), html: b}}
	if next {
		if d, err := html.Parse(bytes.NewReader(b)); err == nil {
			if href := findRelNext(d); href != "" {
				ref, _ := url.Parse(href)
				u := resp.Request.URL.ResolveReference(ref).String()
				out = append(out, sitePage{url: u, html: c.get(u)})
			}
		}
	}
	return out
}

func findForm(n *html.Node, field string) *html.Node {
	if n.Type == html.ElementNode && n.Data == "form" && hasField(n, field) {
		return n
	}
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		if f := findForm(k, field); f != nil {
			return f
		}
	}
	return nil
}

func hasField(n *html.Node, name string) bool {
	if n.Type == html.ElementNode && attr(n, "name") == name && (n.Data == "input" || n.Data == "select") {
		return true
	}
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		if hasField(k, name) {
			return true
		}
	}
	return false
}

func findRelNext(n *html.Node) string {
	if n.Type == html.ElementNode && n.Data == "a" && attr(n, "rel") == "next" {
		return attr(n, "href")
	}
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		if h := findRelNext(k); h != "" {
			return h
		}
	}
	return ""
}

// probeTerms picks content terms the way the prober's term probing does: words of the
// records' titles, not stop words, that occur in several records but not in most.
func probeTerms(s *testsites.Site, n int) []string {
	df := map[string]int{}
	for _, r := range s.Records {
		seen := map[string]bool{}
		for _, t := range textnorm.Tokens(r.Values["title"]) {
			if len(t) >= 4 && !allStopWords[t] && !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	var words []string
	for w, c := range df {
		if c >= 3 && c <= len(s.Records)/10 {
			words = append(words, w)
		}
	}
	slices.SortFunc(words, func(a, b string) int {
		if df[a] != df[b] {
			return df[b] - df[a]
		}
		return strings.Compare(a, b)
	})
	return words[:min(n, len(words))]
}

// collectSite runs the probe plan on a server-rendered site.
func collectSite(t testing.TB, s *testsites.Site) []siteProbe {
	srv := s.NewServer()
	t.Cleanup(srv.Close)
	c := newSiteClient(t, s, srv.URL)
	var probes []siteProbe
	for i, q := range probeTerms(s, 6) {
		probes = append(probes, siteProbe{terms: []string{q}, kind: "term", pages: c.submit(q, i == 0)})
	}
	probes = append(probes,
		siteProbe{terms: []string{"the"}, kind: "stopword", pages: c.submit("the", false)},
		siteProbe{terms: []string{"e"}, kind: "letter", pages: c.submit("e", false)},
		siteProbe{terms: []string{"qzxwvkjptr"}, kind: KindNonsense, pages: c.submit("qzxwvkjptr", false)},
	)
	if v := s.Violations(); len(v) > 0 {
		t.Fatalf("%s: violations %v", s.Name, v)
	}
	return probes
}

// markedRecords returns the absolute XPaths of the elements carrying data-record.
func markedRecords(t testing.TB, page []byte) []string {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && attr(n, testsites.RecordAttr) != "" {
			out = append(out, absXPath(n))
		}
		for k := n.FirstChild; k != nil; k = k.NextSibling {
			walk(k)
		}
	}
	walk(doc)
	return out
}

// siteScore runs Extract on the probes of one site and scores it.
func siteScore(t *testing.T, s *testsites.Site, probes []siteProbe, opts Options) (benchmark.PRF, *Wrapper, string) {
	var in []Page
	truth := map[string][]string{}
	for k, pr := range probes {
		for j, pg := range pr.pages {
			name := fmt.Sprintf("%s-%02d-%d", s.Name, k+1, j+1)
			stripped := testsites.StripMarkers(string(pg.html))
			if strings.Contains(stripped, testsites.RecordAttr+"=") {
				t.Fatalf("%s: markers left after StripMarkers", name)
			}
			in = append(in, Page{Name: name, URL: pg.url, HTML: []byte(stripped), Terms: pr.terms, Kind: pr.kind})
			truth[name] = markedRecords(t, pg.html)
		}
	}
	w, recs, err := Extract(t.Context(), in, opts)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][][]string{}
	for _, r := range recs {
		got[r.Page] = append(got[r.Page], []string{r.XPath})
	}
	var hit, pred, tru int
	var detail strings.Builder
	for _, pg := range in {
		var want [][]string
		for _, x := range truth[pg.Name] {
			want = append(want, []string{x})
		}
		m := exactScore(got[pg.Name], want)
		h := int(m.P*float64(len(got[pg.Name])) + 0.5)
		hit += h
		pred += len(got[pg.Name])
		tru += len(want)
		var class string
		for _, pc := range w.Pages {
			if pc.Page == pg.Name {
				class = pc.Class
			}
		}
		fmt.Fprintf(&detail, "  %-16s %-8s terms=%-12q true=%3d found=%3d hit=%3d\n", pg.Name, class, strings.Join(pg.Terms, " "), len(want), len(got[pg.Name]), h)
	}
	return benchmark.NewPRF(float64(hit), pred, tru), w, detail.String()
}

// serverRendered are the sites whose result pages come from the server; "films" renders
// its records with JavaScript and is scored through the prober in package cmd's browser
// tests.
var serverRendered = []string{"bookshop", "library", "catalogue", "advanced", "portal"}

// TestTestSitesAcceptance scores record extraction on every server-rendered test site
// (record-level P/R/F1, exact XPath match) and requires F1 ≥ 0.98 on each:
//
//	go test ./records -run TestTestSitesAcceptance -v
func TestTestSitesAcceptance(t *testing.T) {
	var tbl strings.Builder
	for _, name := range serverRendered {
		s, err := testsites.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		probes := collectSite(t, s)
		m, w, detail := siteScore(t, s, probes, DefaultOptions())
		fmt.Fprintf(&tbl, "%-10s %s  xpath=%s\n", name, m, w.XPath)
		if m.F < 0.98 {
			t.Errorf("%s: record F1 %.3f < 0.98\n%s", name, m.F, detail)
		}
	}
	t.Log("\n" + tbl.String())
}

// TestSignifierVariants compares the signifier sources on the server-rendered test
// sites (docs/decisions/2026-11-22-forest-signifiers.md):
//
//	go test ./records -run TestSignifierVariants -v
func TestSignifierVariants(t *testing.T) {
	var tbl strings.Builder
	fmt.Fprintf(&tbl, "%-14s", "site")
	variants := []SignifierSource{SignifiersAuto, SignifiersQuery, SignifiersTFIDF, SignifiersUnion}
	for _, v := range variants {
		fmt.Fprintf(&tbl, " %8s", v)
	}
	tbl.WriteString("\n")
	for _, name := range serverRendered {
		s, err := testsites.ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		probes := collectSite(t, s)
		fmt.Fprintf(&tbl, "%-14s", name)
		for _, v := range variants {
			o := DefaultOptions()
			o.Signifiers = v
			m, _, _ := siteScore(t, s, probes, o)
			fmt.Fprintf(&tbl, " %8.3f", m.F)
			if v == SignifiersAuto && m.F < 0.98 {
				t.Errorf("%s: auto signifiers give F1 %.3f", name, m.F)
			}
		}
		tbl.WriteString("\n")
	}
	// the shelf fixture of extract_test.go, with content terms and with weak terms
	for _, qs := range [][]string{{"dickens", "austen", "bronte", "eliot"}, {"e", "the", "a", "o"}} {
		var pages []Page
		truth := 0
		for _, q := range qs {
			h, n := resultPage(q, true)
			truth += n
			pages = append(pages, Page{Name: q, HTML: []byte(h), Terms: []string{q}})
		}
		fmt.Fprintf(&tbl, "%-14s", "shelf:"+qs[0])
		for _, v := range variants {
			o := DefaultOptions()
			o.Signifiers = v
			_, recs, err := Extract(t.Context(), pages, o)
			if err != nil {
				t.Fatal(err)
			}
			good := 0
			for _, r := range recs {
				if strings.Contains(r.XPath, "/ul[1]/li[") && strings.Count(r.XPath, "/") == 6 {
					good++
				}
			}
			m := benchmark.NewPRF(float64(good), len(recs), truth)
			fmt.Fprintf(&tbl, " %8.3f", m.F)
		}
		tbl.WriteString("\n")
	}
	t.Log("record F1 per signifier source\n" + tbl.String())
}
