package records

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/internal/textnorm"
)

// singlePage renders the page a shelf search with one hit gives on sites that treat a
// single match apart: the list of one record under a message and browsing tips,
// without the heading, count and pager of the result pages — laid out like neither
// the result pages nor the no-result page.
func singlePage(q string) string {
	for _, bk := range shelf {
		if strings.Contains(strings.ToLower(bk.title+" "+bk.author), strings.ToLower(q)) {
			return chrome(q, `<h1>Search</h1><p class="msg">One book matches “`+q+`”.</p><ul class="results">`+
				fmt.Sprintf(`<li class="result item-1"><h3><a href="/book/1">%s</a></h3><span class="by">by %s</span> <span class="year">%s</span><button>Add to basket</button></li>`, bk.title, bk.author, bk.year)+
				`</ul><p class="tips">This is the only book that matches your search. Browse the shelves by author, by year or by subject to find more books like this one.</p>`)
		}
	}
	panic("no book matches " + q)
}

// shelfRun is a probe run of the shelf site: four result pages, a nonsense-word page
// and, when single is set, two single-record pages laid out like the no-result page.
func shelfRun(nonsense, single bool) []Page {
	var pages []Page
	for _, q := range []string{"dickens", "austen", "bronte", "eliot"} {
		h, _ := resultPage(q, false)
		pages = append(pages, Page{Name: "p-" + q, URL: "http://shelf.test/search?q=" + q, HTML: []byte(h), Terms: []string{q}, Kind: "term"})
	}
	if nonsense {
		h, _ := resultPage("xqzvkwpr", false)
		pages = append(pages, Page{Name: "nonsense", HTML: []byte(h), Terms: []string{"xqzvkwpr"}, Kind: KindNonsense})
	}
	if single {
		for _, q := range []string{"middlemarch", "villette"} {
			pages = append(pages, Page{Name: "one-" + q, URL: "http://shelf.test/search?q=" + q, HTML: []byte(singlePage(q)), Terms: []string{q}, Kind: "harvest"})
		}
	}
	return pages
}

// TestExtractSingleRecordPages: pages with one record each, laid out like the
// no-result page, form a layout cluster of their own without a repeated pattern; the
// wrapper of the result pages must still find their records, with or without the
// nonsense-word page in the run.
func TestExtractSingleRecordPages(t *testing.T) {
	for _, nonsense := range []bool{false, true} {
		t.Run(fmt.Sprintf("nonsense=%v", nonsense), func(t *testing.T) {
			w, recs, err := Extract(t.Context(), shelfRun(nonsense, true), DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][]Record{}
			for _, r := range recs {
				got[r.Page] = append(got[r.Page], r)
			}
			for _, pc := range w.Pages {
				if !strings.HasPrefix(pc.Page, "one-") {
					continue
				}
				rs := got[pc.Page]
				if pc.Class != ClassResult || len(rs) != 1 {
					t.Errorf("%s: class %s (%s), %d records; want one record", pc.Page, pc.Class, pc.Reason, len(rs))
					continue
				}
				if rs[0].XPath != "/html[1]/body[1]/div[1]/main[1]/ul[1]/li[1]" || rs[0].Leaves[0].Path != "li.result/h3/a" {
					t.Errorf("%s: record %s %+v", pc.Page, rs[0].XPath, rs[0].Leaves)
				}
				if pc.Cluster == w.Pages[0].Cluster {
					t.Errorf("%s: in the result pages' cluster; the fixture must put it apart", pc.Page)
				}
				if !strings.Contains(pc.Reason, "wrapper of template") {
					t.Errorf("%s: reason %q does not name the wrapper that found the record", pc.Page, pc.Reason)
				}
			}
		})
	}
}

// roundTrip writes w as JSON and reads it back, as wrapper.json is.
func roundTrip(t *testing.T, w *Wrapper) *Wrapper {
	t.Helper()
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	var back Wrapper
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	return &back
}

// leafPaths collects the leaf paths of records.
func leafPaths(recs []Record) map[string]bool {
	out := map[string]bool{}
	for _, r := range recs {
		for _, l := range r.Leaves {
			out[l.Path] = true
		}
	}
	return out
}

// TestApplyShelf applies the wrapper of a shelf run (read back from JSON) to new pages
// of every kind.
func TestApplyShelf(t *testing.T) {
	two, n := resultPage("charlotte", false)
	if n != 2 {
		t.Fatalf("fixture: %d books by charlotte, want 2", n)
	}
	noHit, _ := resultPage("zzyzx", false)
	noHitTwice, _ := resultPage("Bleak, bleak!", false)
	single, _ := resultPage("middlemarch", false)
	detail := `<html><body><article class="book"><h1>Middlemarch</h1><p class="blurb">A study of provincial life, in eight books.</p><dl><dt>Author</dt><dd>George Eliot</dd><dt>Year</dt><dd>1871</dd></dl></article></body></html>`
	tests := []struct {
		name, html, kind, q string
		singles             bool // the run holds single-record pages laid out apart
		class               string
		records             int
		reason              string
	}{
		{"two records", two, "mapping", "charlotte", false, ClassResult, 2, ""},
		{"one record, result layout", single, "mapping", "middlemarch", false, ClassResult, 1, ""},
		{"one record, layout of no run page", singlePage("jane eyre"), "mapping", "jane eyre", false, ClassResult, 1, "laid out like no page of the run (best layout similarity"},
		{"one record, layout of a template without wrapper", singlePage("jane eyre"), "mapping", "jane eyre", true, ClassResult, 1, "the wrapper of its layout cluster finds none (no repeated pattern holds a signifier (no record list)), but the wrapper of template 0 finds records"},
		{"echo of the query", noHit, "mapping", "zzyzx", false, ClassError, 0, "echoes the error pattern of nonsense"},
		{"echo of a query with a repeated word", noHitTwice, "mapping", "Bleak, bleak!", false, ClassError, 0, "echoes the error pattern of nonsense"},
		{"nonsense-word probe", noHit, KindNonsense, "zzyzx", false, ClassError, 0, "nonsense-word probe"},
		{"unknown layout", detail, "mapping", "middlemarch", false, ClassUnmatched, 0, "laid out like no page of the run (best layout similarity"},
	}
	for _, singles := range []bool{false, true} {
		run := shelfRun(true, singles)
		w, recs, err := Extract(t.Context(), run, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		a, err := NewApplier(roundTrip(t, w), DefaultApplyOptions())
		if err != nil {
			t.Fatal(err)
		}
		paths := leafPaths(recs)
		for _, tc := range tests {
			if tc.singles != singles {
				continue
			}
			t.Run(tc.name, func(t *testing.T) {
				got, pc, err := a.Apply(t.Context(), Page{Name: "new", URL: "http://shelf.test/search?q=" + tc.q, HTML: []byte(tc.html), Terms: []string{tc.q}, Kind: tc.kind})
				if err != nil {
					t.Fatal(err)
				}
				if pc.Class != tc.class || len(got) != tc.records || pc.Records != tc.records || !strings.HasPrefix(pc.Reason, tc.reason) {
					t.Fatalf("class %s, %d records (%d), reason %q; want %s, %d, reason starting %q", pc.Class, len(got), pc.Records, pc.Reason, tc.class, tc.records, tc.reason)
				}
				for _, r := range got {
					if r.Page != "new" || !strings.HasPrefix(r.XPath, "/html[1]/body[1]/div[1]/main[1]/ul[1]/li[") {
						t.Errorf("record %s on %s", r.XPath, r.Page)
					}
					for _, l := range r.Leaves {
						if !paths[l.Path] {
							t.Errorf("leaf path %q is not a leaf path of the run's records %v", l.Path, paths)
						}
					}
					if !strings.HasPrefix(r.Leaves[0].Href, "http://shelf.test/book/") {
						t.Errorf("link %q not made absolute", r.Leaves[0].Href)
					}
				}
			})
		}
		// Apply gives every page of the run the records and class Extract gave it.
		for i, pg := range run {
			got, pc, err := a.Apply(t.Context(), pg)
			if err != nil {
				t.Fatal(err)
			}
			var want []Record
			for _, r := range recs {
				if r.Page == pg.Name {
					want = append(want, r)
				}
			}
			if !reflect.DeepEqual(got, want) || pc.Class != w.Pages[i].Class || pc.Cluster != w.Pages[i].Cluster {
				t.Errorf("%s: Apply gives %s/%d with %d records, Extract %s/%d with %d", pg.Name, pc.Class, pc.Cluster, len(got), w.Pages[i].Class, w.Pages[i].Cluster, len(want))
			}
		}
	}
}

// TestApplyTestSites learns the wrapper of each server-rendered test site (and of the
// demo site) from the probe plan, then applies it to new submissions: an exact title
// (a page with a single record), a query with two records, and another nonsense word.
// The records must be exactly the marked ones, with leaf paths of the run's records;
// Apply must also agree with Extract on every page of the run.
func TestApplyTestSites(t *testing.T) {
	for _, name := range append(slices.Clone(serverRendered), "demo") {
		t.Run(name, func(t *testing.T) {
			s := testsites.Demo()
			if name != "demo" {
				var err error
				if s, err = testsites.ByName(name); err != nil {
					t.Fatal(err)
				}
			}
			probes := collectSite(t, s)
			var run []Page
			for k, pr := range probes {
				for j, pg := range pr.pages {
					run = append(run, Page{Name: fmt.Sprintf("%s-%02d-%d", name, k+1, j+1), URL: pg.url,
						HTML: []byte(testsites.StripMarkers(string(pg.html))), Terms: pr.terms, Kind: pr.kind})
				}
			}
			w, recs, err := Extract(t.Context(), run, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			a, err := NewApplier(roundTrip(t, w), DefaultApplyOptions())
			if err != nil {
				t.Fatal(err)
			}
			for i, pg := range run {
				got, pc, err := a.Apply(t.Context(), pg)
				if err != nil {
					t.Fatal(err)
				}
				var want []Record
				for _, r := range recs {
					if r.Page == pg.Name {
						want = append(want, r)
					}
				}
				if !reflect.DeepEqual(got, want) || pc.Class != w.Pages[i].Class {
					t.Errorf("%s: Apply gives %s with %d records, Extract %s with %d", pg.Name, pc.Class, len(got), w.Pages[i].Class, len(want))
				}
			}

			paths := leafPaths(recs)
			srv := s.NewServer()
			defer srv.Close()
			c := newSiteClient(t, s, srv.URL)
			check := func(label, q string, wantN int) {
				t.Helper()
				pg := c.submit(q, false)[0]
				truth := markedRecords(t, pg.html)
				if len(truth) != wantN {
					t.Fatalf("%s %q: the site gives %d records, want %d", label, q, len(truth), wantN)
				}
				got, pc, err := a.Apply(t.Context(), Page{Name: label, URL: pg.url, HTML: []byte(testsites.StripMarkers(string(pg.html))), Terms: []string{q}, Kind: "mapping"})
				if err != nil {
					t.Fatal(err)
				}
				var xps []string
				for _, r := range got {
					xps = append(xps, r.XPath)
					for _, l := range r.Leaves {
						if !paths[l.Path] {
							t.Errorf("%s: leaf path %q is not a leaf path of the run's records", label, l.Path)
						}
					}
				}
				wantClass := ClassResult
				if wantN == 0 {
					wantClass = ClassError
				}
				if pc.Class != wantClass || !slices.Equal(xps, truth) {
					t.Errorf("%s %q: class %s (%s), records %v; want %s, %v", label, q, pc.Class, pc.Reason, xps, wantClass, truth)
				}
				t.Logf("%s %q: %s %d records %s", label, q, pc.Class, len(got), pc.Reason)
			}
			check("single", firstWith(t, s, c, titles(s), 1), 1)
			check("two", firstWith(t, s, c, rareWords(s, 2), 2), 2)
			check("nonsense", "vbqxkzwjtlm", 0)
		})
	}
}

// firstWith returns the first of the candidate queries that, typed into the keyword
// field, gives exactly n records.
func firstWith(t *testing.T, s *testsites.Site, c *siteClient, candidates []string, n int) string {
	t.Helper()
	for _, q := range candidates[:min(len(candidates), 40)] {
		if len(markedRecords(t, c.submit(q, false)[0].html)) == n {
			return q
		}
	}
	t.Fatalf("%s: none of %d candidate queries gives %d records", s.Name, len(candidates), n)
	return ""
}

// titles returns the titles of the site's records.
func titles(s *testsites.Site) []string {
	var out []string
	for _, r := range s.Records {
		out = append(out, r.Values["title"])
	}
	return out
}

// rareWords returns the title words of at least five letters that occur in exactly n
// titles, in catalogue order.
func rareWords(s *testsites.Site, n int) []string {
	df := map[string]int{}
	var order []string
	for _, r := range s.Records {
		seen := map[string]bool{}
		for _, w := range textnorm.Tokens(r.Values["title"]) {
			if len(w) >= 5 && !seen[w] {
				seen[w] = true
				if df[w] == 0 {
					order = append(order, w)
				}
				df[w]++
			}
		}
	}
	return slices.DeleteFunc(order, func(w string) bool { return df[w] != n })
}

func TestApplyBadInput(t *testing.T) {
	w, _, err := Extract(t.Context(), shelfRun(true, false), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	h, _ := resultPage("dickens", false)
	good := Page{Name: "p", HTML: []byte(h), Terms: []string{"dickens"}}
	edit := func(f func(w *Wrapper)) *Wrapper {
		c := roundTrip(t, w)
		f(c)
		return c
	}
	tests := []struct {
		name string
		w    *Wrapper
		page Page
		opts ApplyOptions
		want error
		msg  string
	}{
		{"no wrapper", nil, good, DefaultApplyOptions(), ErrBadWrapper, "no wrapper"},
		{"older version", edit(func(w *Wrapper) { w.Version = 1 }), good, DefaultApplyOptions(), ErrStaleWrapper, "wrapper version 1"},
		{"rules missing", edit(func(w *Wrapper) { w.Templates[0].Rules = nil }), good, DefaultApplyOptions(), ErrBadWrapper, "templates[0] (cluster 0) has 1 regions but 0 rules"},
		{"rule without parent", edit(func(w *Wrapper) { w.Templates[0].Rules[0].Parent = nil }), good, DefaultApplyOptions(), ErrBadWrapper, "templates[0].rules[0] has no parent type path"},
		{"error pattern without type path", edit(func(w *Wrapper) { w.ErrorPatterns[0].TypePath = nil }), good, DefaultApplyOptions(), ErrBadWrapper, "error_patterns[0] (nonsense) has no type_path"},
		{"bad mode", edit(func(w *Wrapper) { w.Mode = "tables" }), good, DefaultApplyOptions(), ErrBadWrapper, `mode must be`},
		{"bad threshold", edit(func(w *Wrapper) { w.Options.LayoutThreshold = 0 }), good, DefaultApplyOptions(), ErrBadWrapper, "layout_threshold"},
		{"bad options", w, good, ApplyOptions{}, ErrBadOptions, "MaxPageBytes"},
		{"page too large", w, good, ApplyOptions{MaxPageBytes: 100}, ErrBadPage, "exceeds MaxPageBytes"},
		{"binary page", w, Page{Name: "bin", HTML: []byte("\x00\x01\x00\x02\x00\x00\x00\x00")}, DefaultApplyOptions(), ErrBadPage, "bin: records: not an HTML page"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs, pc, err := Apply(t.Context(), tc.w, tc.page, tc.opts)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want %v containing %q", err, tc.want, tc.msg)
			}
			if recs != nil || pc.Page != tc.page.Name {
				t.Errorf("records %v, page class %+v", recs, pc)
			}
			if errors.Is(err, ErrBadPage) && pc.Class != ClassInvalid {
				t.Errorf("class %q, want invalid", pc.Class)
			}
		})
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, _, err := Apply(ctx, w, good, DefaultApplyOptions()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

func TestReadWrapper(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadWrapper(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing wrapper.json: %v, want fs.ErrNotExist", err)
	}
	if err := os.WriteFile(filepath.Join(dir, WrapperFile), []byte("{\n  \"mode\": \"records\",\n  \"templates\": [}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadWrapper(dir)
	if !errors.Is(err, ErrBadWrapper) || !strings.Contains(err.Error(), WrapperFile+":3:17") {
		t.Errorf("bad JSON: %v, want ErrBadWrapper at %s:3:17", err, WrapperFile)
	}
	w, _, err := Extract(t.Context(), shelfRun(true, false), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, WrapperFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := ReadWrapper(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.Version != WrapperVersion || len(back.Layouts) != 2 || !back.Layouts[1].Error || len(back.Templates[0].Rules) != 1 {
		t.Errorf("wrapper read back: version %d, %d layouts, templates %+v", back.Version, len(back.Layouts), back.Templates)
	}
}

// TestApplyPerPageIDs: result pages whose containers carry an id made per page (a hash
// or a request id, as some applications generate) keep one wrapper: the tolerant form
// drops hexadecimal id parts, so the wrapper learnt on some pages finds the records of
// a page with another id (issue 14: the first result page of each probe lost its
// records when an id in the path changed).
func TestApplyPerPageIDs(t *testing.T) {
	ids := []string{"8c1fa2", "b7e0d3", "4f09ab", "e51c6d", "0a9f3e"}
	withID := func(q, id string) string {
		h, _ := resultPage(q, false)
		h = strings.Replace(h, `<h1 class="hits">`, `<div id="results-`+id+`"><section id="list-`+id+`"><h1 class="hits">`, 1)
		return strings.Replace(h, `</nav>`, `</nav></section></div>`, 1)
	}
	var pages []Page
	for i, q := range []string{"dickens", "austen", "bronte", "eliot"} {
		pages = append(pages, Page{Name: "p-" + q, URL: "http://shelf.test/search?q=" + q, HTML: []byte(withID(q, ids[i])), Terms: []string{q}, Kind: "term"})
	}
	w, recs, err := Extract(t.Context(), pages, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, pg := range pages {
		n := 0
		for _, r := range recs {
			if r.Page == pg.Name {
				n++
			}
		}
		_, want := resultPage(strings.TrimPrefix(pg.Name, "p-"), false)
		if n != want {
			t.Errorf("Extract: %s has %d records, want %d", pg.Name, n, want)
		}
	}
	q := "charlotte"
	got, class, err := Apply(t.Context(), w, Page{Name: "new", HTML: []byte(withID(q, ids[4])), Terms: []string{q}, Kind: "mapping"}, DefaultApplyOptions())
	if err != nil {
		t.Fatal(err)
	}
	if _, want := resultPage(q, false); class.Class != ClassResult || len(got) != want {
		t.Errorf("Apply on a page with another id: class %s (%s), %d records, want %d", class.Class, class.Reason, len(got), want)
	}
}
