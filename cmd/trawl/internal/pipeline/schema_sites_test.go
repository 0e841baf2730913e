package pipeline

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/antchfx/htmlquery"
	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/schema"
	"github.com/trawl-dev/trawl/schema/schematest"
)

// stripping hands the stage under test the pages without the test sites' answer-key
// markers.
type stripping struct{ p *probe.Prober }

func (s stripping) Submit(ctx context.Context, f probe.Form, values map[string]string) ([]probe.Page, error) {
	pages, err := s.p.Submit(ctx, f, values)
	for i := range pages {
		pages[i].HTML = testsites.StripMarkers(pages[i].HTML)
	}
	return pages, err
}

// TestSchemaOnTestSites is the acceptance test of the output schema and the
// input–output mapping on the local test sites, with the real prober in Chromium: probe
// each site with the agnostic plan, isolate the records with FOREST (markers stripped),
// build the schema with re-submission through the prober, and score it against the
// site's truth: precision and recall of the features ≥ 0.95, every text field that
// filters an attribute mapped to it, no field mapped to a wrong attribute. Then the
// graph stage must give byte-identical graph.nt twice and rapper must accept it.
func TestSchemaOnTestSites(t *testing.T) {
	if os.Getenv("TRAWL_BROWSER_TESTS") != "1" {
		t.Skip("browser test: set TRAWL_BROWSER_TESTS=1 (and install chromium) to run it")
	}
	p := testProber(t, false)
	only := os.Getenv("TRAWL_SITES")
	for _, site := range testsites.All() {
		if only != "" && !slices.Contains(strings.Split(only, ","), site.Name) {
			continue
		}
		t.Run(site.Name, func(t *testing.T) {
			srv := site.NewServer()
			defer srv.Close()
			dir := t.TempDir()
			start := time.Now()
			recs, marked := probeAndExtract(t, p, srv.URL+site.FormPath, dir, 24)
			s, rs := schemaWith(t, dir, stripping{p})
			truth := siteTruth(t, site, recs, marked)
			sc := schematest.Evaluate(s, recs, truth)
			t.Logf("%s: %d records, %d re-submissions, %v", site.Name, len(recs), rs.n, time.Since(start).Round(time.Millisecond))
			logSchema(t, s)
			for _, pr := range s.Source.Probes {
				t.Logf("  probe %d %s %v records=%d", pr.N, pr.Kind, pr.Assignment, pr.Records)
			}
			for _, dr := range s.Dropped {
				t.Logf("  dropped %-13s %-40s records=%d %q", dr.Reason, dr.Key, dr.Records, dr.Samples)
			}
			t.Logf("  score: %v", sc)
			if sc.Precision < 0.95 || sc.Recall < 0.95 {
				t.Errorf("precision %.3f, recall %.3f: want ≥ 0.95", sc.Precision, sc.Recall)
			}
			if len(sc.WrongMappings) > 0 {
				t.Errorf("fields mapped to a wrong attribute: %v", sc.WrongMappings)
			}
			var missing []string
			for _, m := range sc.MissingMappings {
				fd, _ := site.Field(strings.SplitN(m, "->", 2)[0])
				if fd.Type == "text" || fd.Type == "search" || fd.Type == "number" {
					missing = append(missing, m)
				}
			}
			if len(missing) > 0 {
				t.Errorf("text fields not mapped to the attribute they filter: %v", missing)
				for _, tr := range s.Trials {
					t.Logf("  trial %s <- %q in %s: records=%d matched %d/%d passed=%v relation=%q baseline=%v probe=%d err=%q", tr.Feature, tr.Value, tr.Field, tr.Records, tr.Matched, tr.Instances, tr.Passed, tr.Relation, tr.Baseline, tr.Probe, tr.Error)
				}
			}
			checkGraph(t, dir)
		})
	}
}

// siteTruth reads the answer key: the data-record id of each record's element on the
// marked page, and the site's values for it.
func siteTruth(t *testing.T, site *testsites.Site, recs []records.Record, marked map[string][]byte) schematest.Truth {
	t.Helper()
	ids := make([]string, len(recs))
	docs := map[string]*html.Node{}
	for i, r := range recs {
		raw, ok := marked[r.Page]
		if !ok {
			continue
		}
		doc, ok := docs[r.Page]
		if !ok {
			d, err := htmlquery.Parse(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			docs[r.Page], doc = d, d
		}
		n, err := htmlquery.Query(doc, r.XPath)
		if err != nil || n == nil {
			continue
		}
		for ; n != nil && ids[i] == ""; n = n.Parent {
			ids[i] = htmlquery.SelectAttr(n, testsites.RecordAttr)
		}
	}
	tr := schematest.Truth{Attributes: site.Attributes, Fields: map[string][]string{}}
	for _, f := range site.Fields {
		for _, a := range f.Attributes {
			tr.Fields[a] = append(tr.Fields[a], f.Name)
		}
	}
	tr.Value = func(i int, a string) string {
		rec, ok := site.Record(ids[i])
		if !ok {
			return ""
		}
		return rec.Values[a]
	}
	return tr
}

// testProber starts Chromium and a prober with fast options for local sites.
// ignoreRobots is for a local site of our own whose robots.txt forbids everything
// (calibre-server's does).
func testProber(t *testing.T, ignoreRobots bool) *probe.Prober {
	t.Helper()
	po := probe.DefaultOptions()
	po.Delay = 0
	po.Screenshots = false
	po.AllowPOST = true
	po.Tabs = 2
	po.StepTimeout = 20 * time.Second
	po.SettleTimeout = 3 * time.Second
	po.Quiet = 100 * time.Millisecond
	po.MaxPagesPerProbe = 1
	po.IgnoreRobots = ignoreRobots
	b, err := probe.Start(t.Context(), po)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	p, err := probe.NewProber(b, po)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// probeAndExtract discovers the form at formURL, probes it with the agnostic plan into
// dir, strips the answer-key markers from the saved pages (returning the marked ones),
// and writes records.jsonl with FOREST.
func probeAndExtract(t *testing.T, p *probe.Prober, formURL, dir string, maxProbes int) ([]records.Record, map[string][]byte) {
	t.Helper()
	d, err := p.Discover(t.Context(), formURL)
	if err != nil {
		t.Fatal(err)
	}
	form := d.Form()
	plo := probe.DefaultPlanOptions()
	plo.Seed = 1
	plo.MaxProbes = maxProbes
	rd, err := probe.CreateRunDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := rd.WriteForm(form); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(t.Context(), form, probe.AgnosticPlan(form, plo), rd); err != nil {
		t.Fatal(err)
	}
	if err := rd.Close(); err != nil {
		t.Fatal(err)
	}
	marked := map[string][]byte{}
	pages, _, err := stagePipeline(dir).Pages()
	if err != nil {
		t.Fatal(err)
	}
	for i := range pages {
		marked[pages[i].Name] = pages[i].HTML
		pages[i].HTML = []byte(testsites.StripMarkers(string(pages[i].HTML)))
		if err := os.WriteFile(filepath.Join(dir, pages[i].Name), pages[i].HTML, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, recs, err := records.Extract(t.Context(), pages, records.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if err := rundir.WriteJSONL(filepath.Join(dir, rundir.RecordsFile), recs); err != nil {
		t.Fatal(err)
	}
	return recs, marked
}

// schemaWith runs the schema stage on dir with re-submissions through sub.
func schemaWith(t *testing.T, dir string, sub pageSubmitter) (*schema.Schema, *resubmitter) {
	t.Helper()
	p := stagePipeline(dir)
	form, err := p.st.Form()
	if err != nil {
		t.Fatal(err)
	}
	rs, err := newResubmitter(p, sub, form)
	if err != nil {
		t.Fatal(err)
	}
	recs, in, err := p.schemaInput()
	if err != nil {
		t.Fatal(err)
	}
	in.Submitter = rs
	s, err := schema.Run(t.Context(), dir, recs, in, schema.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return s, rs
}

// checkGraph runs the graph stage twice (the bytes must not change) and validates
// graph.nt with rapper when it is installed.
func checkGraph(t *testing.T, dir string) {
	t.Helper()
	var graphs [2][]byte
	for k := range graphs {
		if _, err := stagePipeline(dir).Graph(t.Context()); err != nil {
			t.Fatal(err)
		}
		graphs[k], _ = os.ReadFile(filepath.Join(dir, rundir.GraphFile))
	}
	if !bytes.Equal(graphs[0], graphs[1]) {
		t.Error("graph.nt differs between two runs on the same pages")
	}
	if bin, err := exec.LookPath("rapper"); err == nil {
		if out, err := exec.CommandContext(t.Context(), bin, "-i", "ntriples", "-c", filepath.Join(dir, rundir.GraphFile)).CombinedOutput(); err != nil {
			t.Errorf("rapper rejects graph.nt: %v\n%s", err, out)
		}
	}
}

func logSchema(t *testing.T, s *schema.Schema) {
	t.Helper()
	for _, f := range s.Features {
		t.Logf("  feature %-26s %-6s %-8s label=%-12q records=%-4d samples=%q", f.Name, f.Kind, f.Type, f.Label, f.Records, f.Samples[:min(3, len(f.Samples))])
	}
	for _, m := range s.Mapping {
		t.Logf("  mapping %s -> %s (%s, %s, %.2f over %d)", m.Field, m.Feature, m.Method, m.Relation, m.Score, m.Evidence)
	}
}

// TestSchemaOnCalibre runs probe → FOREST → schema (with re-submission through the
// prober) → graph on the real calibre content server: title and author must be separate
// features and the search box must map to at least one of them.
func TestSchemaOnCalibre(t *testing.T) {
	if os.Getenv("TRAWL_BROWSER_TESTS") != "1" {
		t.Skip("browser test: set TRAWL_BROWSER_TESTS=1 (and install chromium) to run it")
	}
	u := os.Getenv("TRAWL_CALIBRE_URL")
	if u == "" {
		u = "http://127.0.0.1:18082/mobile"
	}
	if resp, err := http.Get(u); err != nil {
		t.Skipf("calibre site not reachable at %s (start /work/shared/sites/calibre/start.sh): %v", u, err)
	} else {
		resp.Body.Close()
	}
	p := testProber(t, true)
	dir := t.TempDir()
	start := time.Now()
	recs, _ := probeAndExtract(t, p, u, dir, 24)
	s, rs := schemaWith(t, dir, p)
	t.Logf("calibre: %d records, %d re-submissions, %v", len(recs), rs.n, time.Since(start).Round(time.Millisecond))
	logSchema(t, s)
	truth, err := schematest.CalibreTruth(t.Context(), strings.TrimSuffix(u, "/mobile"), recs)
	if err != nil {
		t.Fatal(err)
	}
	sc := schematest.Evaluate(s, recs, truth)
	t.Logf("  score: %v", sc)
	title, author := sc.Matched["title"], sc.Matched["authors"]
	if title == "" || author == "" || title == author {
		t.Fatalf("title feature %q, author feature %q: want two separate features", title, author)
	}
	if len(s.MappedFields(title))+len(s.MappedFields(author)) == 0 {
		t.Errorf("the search box maps to neither title (%s) nor author (%s)", title, author)
	}
	if len(sc.WrongMappings) > 0 {
		t.Errorf("wrong mappings: %v", sc.WrongMappings)
	}
	t.Logf("title = %s (mapped from %v), author = %s (mapped from %v)", title, s.MappedFields(title), author, s.MappedFields(author))
	checkGraph(t, dir)
}
