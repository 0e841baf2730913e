package runtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/probe"
)

// HostileTitle is put into one record's title on a saved page, as text (escaped in the
// page's HTML): it travels through records.jsonl, schema.json and graph.nt into the
// report, which must show it as text.
const HostileTitle = `<script>alert(1)</script>`

// Bookshop builds a complete run directory the way the pipeline does, without a
// browser: the bookshop test site (its pages are rendered on the server) is served on
// 127.0.0.1; its form is read with the form parser and classifier; the probes are plain
// GETs logged to probes.jsonl with their pages (answer-key markers stripped); then the
// pipeline's own stages run: extract (FOREST), schema (with the mapping from the probe
// log), graph, and align (PARIS, understanding and enrichment) against kb, a small
// N-Triples file of real facts about the site's books in YAGO 4.5 vocabulary
// (BookshopKB). It returns the run directory and the KB file.
func Bookshop(t testing.TB) (dir, kb string) {
	t.Helper()
	ctx := t.Context()
	site := BookshopSite(t)
	srv := site.NewServer()
	defer srv.Close()
	dir = filepath.Join(t.TempDir(), "run")

	get := func(u string) (string, int) {
		t.Helper()
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return testsites.StripMarkers(string(b)), resp.StatusCode
	}

	// The form.
	formURL := srv.URL + "/"
	page, _ := get(formURL)
	doc, err := probe.ReadHTML(strings.NewReader(page), "text/html; charset=utf-8")
	if err != nil {
		t.Fatal(err)
	}
	forms, err := probe.ParseForms(doc, formURL)
	if err != nil {
		t.Fatal(err)
	}
	for i := range forms {
		probe.Classify(&forms[i])
	}
	fi, ok := probe.BestSearchForm(forms)
	if !ok {
		t.Fatal("bookshop: no search form")
	}
	form := forms[fi]
	form.PageURL = formURL
	rd, err := probe.CreateRunDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := rd.WriteForm(form); err != nil {
		t.Fatal(err)
	}
	// A stand-in screenshot of the form (no browser here): a real PNG, so that the
	// report's embedding of images is exercised.
	if err := rd.WriteFile(rundir.FormPNG, PNG(t, 120, 40)); err != nil {
		t.Fatal(err)
	}

	// The probes.
	plan := []struct {
		kind string
		v    map[string]string
	}{
		{"nonsense", map[string]string{"q": probe.NonsenseWord(7)}},
		{"stopword", map[string]string{"q": "the"}},
		{"term", map[string]string{"q": "love"}},
		{"term", map[string]string{"q": "harry"}},
		{"term", map[string]string{"q": "war"}},
		{"term", map[string]string{"q": "night"}},
		{"term", map[string]string{"q": "king"}},
		{"option", map[string]string{"lang": "French"}},
	}
	firstTitle := regexp.MustCompile(`(<a href="/book/\d+">)([^<]*)(</a>)`)
	for n, p := range plan {
		q := url.Values{}
		var terms []string
		for k, v := range p.v {
			q.Set(k, v)
			if k == "q" {
				terms = append(terms, v)
			}
		}
		u := srv.URL + "/search?" + q.Encode()
		start := time.Now()
		body, status := get(u)
		if p.v["q"] == "the" { // the first result page: the one the report embeds
			if loc := firstTitle.FindStringSubmatchIndex(body); loc != nil {
				body = body[:loc[4]] + "&lt;script&gt;alert(1)&lt;/script&gt; " + body[loc[4]:]
			}
		}
		pr := probe.Probe{N: n + 1, Kind: p.kind, Assignment: p.v, Terms: terms, URL: u, Status: status,
			Trigger: "submit", Navigated: true, Started: start, Duration: time.Since(start)}
		pg := probe.Page{URL: u, Status: status, HTML: body, Navigated: true, Elapsed: time.Since(start)}
		if p.v["q"] == "the" {
			pg.Screenshot = PNG(t, 200, 120) // a stand-in for the browser's screenshot
		}
		if _, err := rd.AddProbe(pr, []probe.Page{pg}); err != nil {
			t.Fatal(err)
		}
	}
	if err := rd.Close(); err != nil {
		t.Fatal(err)
	}
	// probe-run.json as 'trawl probe' writes it (the fields the report reads).
	if err := rd.WriteJSON(rundir.ProbeRunFile, map[string]any{
		"url": formURL, "final_url": formURL, "dir": dir, "started": time.Now().UTC(), "finished": time.Now().UTC(),
		"user_agent": "trawl-test", "chosen": fi, "plan": "explicit: report fixture",
		"forms":           []map[string]any{{"index": 0, "xpath": form.XPath, "class": form.Class, "confidence": form.Confidence, "action": form.Action, "method": form.Method}},
		"options":         map[string]any{"tabs": 1, "delay": "0s", "max_probes": len(plan), "ignore_robots": true},
		"summary":         map[string]any{"probes": len(plan), "failed": 0, "pages": len(plan), "planned": len(plan)},
		"form_screenshot": rundir.FormPNG,
	}); err != nil {
		t.Fatal(err)
	}
	mk, _ := json.Marshal(rundir.Marker{Stage: "probe", Digest: "test", Finished: time.Now().UTC(), Seconds: 0.5})
	if err := rundir.WriteFile(filepath.Join(dir, rundir.MarkerFile("probe")), mk); err != nil {
		t.Fatal(err)
	}

	// The stages.
	kb = WriteKB(t, BookshopKB(site))
	po := pipeline.DefaultOptions()
	po.Dir, po.KB, po.URL = dir, kb, formURL
	po.Probe.Screenshots = false
	po.Resubmit = false
	p := pipeline.New(po, nil)
	defer p.Close()
	for _, stage := range []string{"extract", "schema", "graph", "align"} {
		if err := p.RunStage(ctx, stage); err != nil {
			t.Fatalf("%s: %v", stage, err)
		}
	}
	return dir, kb
}

// WriteKB writes triples as an N-Triples file and returns its path.
func WriteKB(t testing.TB, triples []graph.Triple) string {
	t.Helper()
	var buf bytes.Buffer
	if err := graph.WriteSorted(&buf, triples); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bookshop-kb.nt")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// BookshopKB is a small reference KB in YAGO 4.5 vocabulary with the real facts the
// bookshop's catalogue shows about two thirds of its books (title, first author,
// original publication year, from goodbooks-10k); the other third is the long tail the
// KB lacks. The shop's prices are synthetic and are not put into the KB.
func BookshopKB(site *testsites.Site) []graph.Triple {
	const (
		yagoNS   = "http://yago-knowledge.org/resource/"
		schemaNS = "http://schema.org/"
	)
	iri := func(name string) graph.Term {
		return graph.NewIRI(yagoNS + url.PathEscape(strings.ReplaceAll(name, " ", "_")))
	}
	typ, label := graph.NewIRI(graph.RDFType), graph.NewIRI(graph.RDFSLabel)
	sub := graph.NewIRI(graph.SubClassOf)
	sc := func(l string) graph.Term { return graph.NewIRI(schemaNS + l) }
	ts := []graph.Triple{
		{S: sc("Book"), P: sub, O: sc("CreativeWork")},
		{S: sc("CreativeWork"), P: sub, O: sc("Thing")},
		{S: sc("Person"), P: sub, O: sc("Thing")},
	}
	people := map[string]bool{}
	for i, r := range site.Records {
		if i%3 == 2 {
			continue
		}
		title, author, year := r.Values["title"], r.Values["author"], r.Values["year"]
		if title == "" {
			continue
		}
		b := iri(title + " (" + r.ID + ")")
		ts = append(ts, graph.Triple{S: b, P: typ, O: sc("Book")}, graph.Triple{S: b, P: label, O: graph.NewLangString(title, "en")})
		if y, err := strconv.Atoi(year); err == nil && y > 999 && y < 10000 {
			ts = append(ts, graph.Triple{S: b, P: sc("datePublished"), O: graph.NewTyped(year, graph.XSD+"gYear")})
		}
		if author != "" {
			a := iri(author)
			ts = append(ts, graph.Triple{S: b, P: sc("author"), O: a})
			if !people[author] {
				people[author] = true
				ts = append(ts, graph.Triple{S: a, P: typ, O: sc("Person")}, graph.Triple{S: a, P: label, O: graph.NewLangString(author, "en")})
			}
		}
	}
	return ts
}

// PNG returns a w×h PNG.
func PNG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 2), uint8(y * 5), 180, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// CopyRun copies a run directory (files only, one level of subdirectories), keeping
// the files keep says yes to.
func CopyRun(t testing.TB, src string, keep func(rel string) bool) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "run")
	err := filepath.WalkDir(src, func(p string, de os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if de.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !keep(filepath.ToSlash(rel)) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(fmt.Errorf("copy the run: %w", err))
	}
	return dst
}

// BookshopSite is the bookshop test site.
func BookshopSite(t testing.TB) *testsites.Site {
	t.Helper()
	site, err := testsites.ByName("bookshop")
	if err != nil {
		t.Fatal(err)
	}
	return site
}
