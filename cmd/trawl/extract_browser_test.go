package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/internal/textnorm"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
)

// TestExtractTestSitesBrowser is the record-isolation acceptance on all six local test
// sites, with their result pages rendered by real Chromium through the prober (the
// films site builds its records with JavaScript): the prober submits content terms
// taken from the catalogue, a stop word, a single letter and a nonsense word; the
// answer-key markers are stripped; records.Extract runs on the pages; the extracted
// record XPaths are scored against the marked records. F1 ≥ 0.98 on each site.
//
//	TRAWL_BROWSER_TESTS=1 go test ./cmd/trawl -run TestExtractTestSitesBrowser -v
func TestExtractTestSitesBrowser(t *testing.T) {
	if os.Getenv("TRAWL_BROWSER_TESTS") != "1" {
		t.Skip("browser test: set TRAWL_BROWSER_TESTS=1 (and install chromium) to run it")
	}
	o := probe.DefaultOptions()
	o.Delay = 0
	o.StepTimeout = 20 * time.Second
	o.SettleTimeout = 3 * time.Second
	o.Quiet = 100 * time.Millisecond
	o.AllowPOST = true
	o.Tabs = 1
	o.MaxPagesPerProbe = 2
	b, err := probe.Start(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := probe.NewProber(b, o)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var report strings.Builder
	for _, s := range testsites.All() {
		t.Run(s.Name, func(t *testing.T) {
			srv := s.NewServer()
			defer srv.Close()
			d, err := p.Discover(t.Context(), srv.URL+s.FormPath)
			if err != nil {
				t.Fatal(err)
			}
			f := d.Form()
			kw := ""
			for _, fl := range s.Fields {
				if fl.Keyword {
					kw = fl.Name
				}
			}
			type q struct{ term, kind string }
			plan := []q{}
			for _, w := range catalogueTerms(s, 6) {
				plan = append(plan, q{w, "term"})
			}
			plan = append(plan, q{"the", "stopword"}, q{"e", "letter"}, q{"qzxwvkjptr", records.KindNonsense})
			var pages []records.Page
			truth := map[string][]string{}
			for i, pr := range plan {
				got, err := p.Submit(t.Context(), f, map[string]string{kw: pr.term})
				if err != nil {
					t.Fatalf("submit %q: %v", pr.term, err)
				}
				for j, pg := range got {
					name := fmt.Sprintf("%s-%02d-%d", s.Name, i+1, j+1)
					truth[name] = markedXPaths(t, pg.HTML)
					pages = append(pages, records.Page{Name: name, URL: pg.URL, HTML: []byte(testsites.StripMarkers(pg.HTML)),
						Terms: []string{pr.term}, Kind: pr.kind})
				}
			}
			w, recs, err := records.Extract(t.Context(), pages, records.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			found := map[string]map[string]bool{}
			for _, r := range recs {
				if found[r.Page] == nil {
					found[r.Page] = map[string]bool{}
				}
				found[r.Page][r.XPath] = true
			}
			hit, pred, tru := 0, len(recs), 0
			for name, xs := range truth {
				tru += len(xs)
				for _, x := range xs {
					if found[name][x] {
						hit++
					}
				}
			}
			prec, rec := ratio(hit, pred), ratio(hit, tru)
			f1 := 0.0
			if prec+rec > 0 {
				f1 = 2 * prec * rec / (prec + rec)
			}
			fmt.Fprintf(&report, "%-10s pages=%2d true=%4d found=%4d P=%.3f R=%.3f F1=%.3f xpath=%s\n",
				s.Name, len(pages), tru, pred, prec, rec, f1, w.XPath)
			if f1 < 0.98 {
				t.Errorf("%s: record F1 %.3f < 0.98", s.Name, f1)
			}
			if v := s.Violations(); len(v) > 0 {
				t.Errorf("violations %v", v)
			}
		})
	}
	t.Log("\n" + report.String())
}

// TestExtractRunDirBrowser runs the pipeline as a user does: the prober's agnostic plan
// (stop words, letters, options, contextual terms, a nonsense word) on each test site,
// written to a run directory; the answer-key markers are then stripped from the saved
// pages, 'trawl extract RUN_DIR' runs, and its records.jsonl is scored against the
// markers.
//
//	TRAWL_BROWSER_TESTS=1 go test ./cmd/trawl -run TestExtractRunDirBrowser -v
func TestExtractRunDirBrowser(t *testing.T) {
	if os.Getenv("TRAWL_BROWSER_TESTS") != "1" {
		t.Skip("browser test: set TRAWL_BROWSER_TESTS=1 (and install chromium) to run it")
	}
	o := probe.DefaultOptions()
	o.Delay = 0
	o.StepTimeout = 20 * time.Second
	o.SettleTimeout = 3 * time.Second
	o.Quiet = 100 * time.Millisecond
	o.AllowPOST = true
	o.Tabs = 2
	o.MaxPagesPerProbe = 2
	b, err := probe.Start(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() }) // after the parallel subtests
	var (
		mu     sync.Mutex
		report strings.Builder
	)
	t.Cleanup(func() { t.Log("\n" + report.String()) })
	for _, s := range testsites.All() {
		t.Run(s.Name, func(t *testing.T) {
			// The sites two at a time, a prober each over the one browser: a site's
			// probes wait on the page as much as they compute.
			t.Parallel()
			p, err := probe.NewProber(b, o)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			srv := s.NewServer()
			defer srv.Close()
			d, err := p.Discover(t.Context(), srv.URL+s.FormPath)
			if err != nil {
				t.Fatal(err)
			}
			po := probe.DefaultPlanOptions()
			po.MaxProbes = 14
			po.Seed = 7
			plan := probe.AgnosticPlan(d.Form(), po)
			dir := t.TempDir()
			rd, err := probe.CreateRunDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := rd.WriteForm(d.Form()); err != nil {
				t.Fatal(err)
			}
			if _, err := p.Run(t.Context(), d.Form(), plan, rd); err != nil {
				t.Fatal(err)
			}
			if err := rd.Close(); err != nil {
				t.Fatal(err)
			}
			// strip the answer key from the saved pages, keeping the truth
			probes, err := probe.ReadProbes(dir)
			if err != nil {
				t.Fatal(err)
			}
			truth := map[string][]string{}
			for _, pr := range probes {
				for _, ref := range pr.Pages {
					path := filepath.Join(dir, ref.File)
					raw, err := os.ReadFile(path)
					if err != nil {
						t.Fatal(err)
					}
					truth[ref.File] = markedXPaths(t, string(raw))
					if err := os.WriteFile(path, []byte(testsites.StripMarkers(string(raw))), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			var out bytes.Buffer
			eo := extractOptions{RunDir: dir, Mode: "records", Regions: "best", Signifiers: "auto", TopK: 10}
			if err := runExtract(t.Context(), globalOptions{stderr: io.Discard}, eo, &out); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(filepath.Join(dir, records.RecordsFile))
			if err != nil {
				t.Fatal(err)
			}
			recs, err := rundir.DecodeJSONL[records.Record](f, records.RecordsFile)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			found := map[string]map[string]bool{}
			for _, r := range recs {
				if found[r.Page] == nil {
					found[r.Page] = map[string]bool{}
				}
				found[r.Page][r.XPath] = true
			}
			hit, tru := 0, 0
			for name, xs := range truth {
				tru += len(xs)
				h := 0
				for _, x := range xs {
					if found[name][x] {
						h++
					}
				}
				if h != len(xs) || len(found[name]) != len(xs) {
					t.Logf("%s: %d true records, %d found, %d right", name, len(xs), len(found[name]), h)
					if os.Getenv("TRAWL_KEEP_RUN") != "" {
						os.CopyFS(os.Getenv("TRAWL_KEEP_RUN"), os.DirFS(dir))
					}
				}
				hit += h
			}
			prec, rec := ratio(hit, len(recs)), ratio(hit, tru)
			f1 := 0.0
			if prec+rec > 0 {
				f1 = 2 * prec * rec / (prec + rec)
			}
			mu.Lock()
			fmt.Fprintf(&report, "%-10s probes=%2d pages=%2d true=%4d found=%4d P=%.3f R=%.3f F1=%.3f\n",
				s.Name, len(probes), len(truth), tru, len(recs), prec, rec, f1)
			mu.Unlock()
			if f1 < 0.98 {
				t.Errorf("%s: record F1 %.3f < 0.98", s.Name, f1)
			}
		})
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// catalogueTerms picks title words that occur in several records but not in most.
func catalogueTerms(s *testsites.Site, n int) []string {
	df := map[string]int{}
	for _, r := range s.Records {
		seen := map[string]bool{}
		for _, t := range textnorm.Tokens(r.Values["title"]) {
			if len(t) >= 4 && !textnorm.IsStopWord(t) && !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	var words []string
	for w, c := range df {
		if c >= 3 && c <= max(3, len(s.Records)/10) {
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

// markedXPaths returns the index-qualified XPaths of the elements carrying the
// data-record answer key.
func markedXPaths(t *testing.T, page string) []string {
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				if a.Key == testsites.RecordAttr {
					out = append(out, nodeXPath(n))
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

func nodeXPath(n *html.Node) string {
	var steps []string
	for c := n; c != nil && c.Type == html.ElementNode; c = c.Parent {
		k := 1
		for s := c.PrevSibling; s != nil; s = s.PrevSibling {
			if s.Type == html.ElementNode && s.Data == c.Data {
				k++
			}
		}
		steps = append([]string{c.Data + "[" + strconv.Itoa(k) + "]"}, steps...)
	}
	return "/" + strings.Join(steps, "/")
}
