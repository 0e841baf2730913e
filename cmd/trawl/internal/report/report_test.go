package report_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/report"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/runtest"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/schema"
)

// bookshopRun is the run directory of the bookshop fixture (runtest.Bookshop).
func bookshopRun(t testing.TB) string {
	t.Helper()
	dir, _ := runtest.Bookshop(t)
	return dir
}

// TestReport builds a complete run of the bookshop test site with the real stages and
// checks its report: valid HTML, self-contained, the key facts of every stage, the
// hostile record value escaped, and the behaviour on missing and malformed files.
func TestReport(t *testing.T) {
	dir := bookshopRun(t)
	if keep := os.Getenv("TRAWL_REPORT_KEEP"); keep != "" {
		defer func() { _ = os.CopyFS(keep, os.DirFS(dir)) }()
	}
	raw, doc := writeReport(t, dir)
	text := runtest.Text(doc)

	t.Run("self-contained", func(t *testing.T) {
		runtest.CheckSelfContained(t, doc, false)
		frames := runtest.FindAll(doc, atom.Iframe)
		if len(frames) != 1 {
			t.Fatalf("%d iframes, want 1 (the result page)", len(frames))
		}
		if runtest.Attr(frames[0], "sandbox") != "" || !runtest.HasAttr(frames[0], "sandbox") {
			t.Errorf("iframe sandbox=%q: want an empty sandbox (nothing allowed)", runtest.Attr(frames[0], "sandbox"))
		}
		inner, err := html.Parse(strings.NewReader(runtest.Attr(frames[0], "srcdoc")))
		if err != nil {
			t.Fatal(err)
		}
		runtest.CheckSelfContained(t, inner, true)
		if n := len(runtest.FindClass(inner, report.RecordClass)); n < 5 {
			t.Errorf("%d outlined records in the embedded page, want ≥ 5", n)
		}
		var alts []string
		for _, img := range runtest.FindAll(doc, atom.Img) {
			alts = append(alts, runtest.Attr(img, "alt"))
		}
		for _, want := range []string{"screenshot of the form (form.png)", "screenshot of the result page (pages/0002-1.png)"} {
			if !slices.Contains(alts, want) {
				t.Errorf("image %q not embedded (images: %q)", want, alts)
			}
		}
	})

	t.Run("key facts", func(t *testing.T) {
		form := runtest.SectionText(t, doc, "form")
		for _, want := range []string{"q", "lang", "sort", "Search books", "keyword", "All languages"} {
			if !strings.Contains(form, want) {
				t.Errorf("form section lacks %q", want)
			}
		}
		s, err := schema.Load(filepath.Join(dir, schema.SchemaFile))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Mapping) == 0 {
			t.Fatal("the fixture's schema maps no field; the mapping cannot be checked")
		}
		mapping := runtest.SectionText(t, doc, "mapping")
		for _, m := range s.Mapping {
			if !strings.Contains(mapping, m.Field) || !strings.Contains(mapping, m.Feature) || !strings.Contains(mapping, m.Method) {
				t.Errorf("mapping section lacks %s → %s (%s)", m.Field, m.Feature, m.Method)
			}
		}
		for _, f := range s.Features {
			if !strings.Contains(runtest.SectionText(t, doc, "schema"), f.Name) {
				t.Errorf("schema section lacks feature %s", f.Name)
			}
		}
		u := readUnderstanding(t, dir)
		alignment := runtest.SectionText(t, doc, "alignment")
		aligned := 0
		for _, r := range u.Relations {
			if r.Status != align.RelationAligned || r.Aligned == nil {
				continue
			}
			aligned++
			want := report.ShortPath(r.Aligned.Relation)
			if !strings.Contains(alignment, want) || !strings.Contains(alignment, report.Conf(r.Aligned.Confidence)) {
				t.Errorf("alignment section lacks %s with confidence %s", want, report.Conf(r.Aligned.Confidence))
			}
		}
		if aligned == 0 {
			t.Fatal("the fixture aligned no relation; the report's alignment cannot be checked")
		}
		if !strings.Contains(alignment, "rdfs:label") {
			t.Error("alignment section does not name rdfs:label (the title's relation)")
		}
		links := countLines(t, filepath.Join(dir, align.FileLinks))
		if links == 0 {
			t.Fatal("the fixture has no owl:sameAs link")
		}
		if got := runtest.SummaryValue(doc, "sameAs links"); got != fmt.Sprint(links) {
			t.Errorf("summary: sameAs links = %q, links.nt has %d", got, links)
		}
		recs := countLines(t, filepath.Join(dir, records.RecordsFile))
		if got := runtest.SummaryValue(doc, "records"); got != fmt.Sprint(recs) {
			t.Errorf("summary: records = %q, records.jsonl has %d", got, recs)
		}
		if !strings.Contains(alignment, "schema:Book") {
			t.Error("alignment section lacks the record class's KB class schema:Book")
		}
		enrich := runtest.SectionText(t, doc, "enrichment")
		if u.Enrichment == nil || u.Enrichment.NewInstances == 0 {
			t.Fatal("the fixture's enrichment has no new instance")
		}
		for _, want := range []string{fmt.Sprint(u.Enrichment.NewInstances), "new instances", filepath.Join(dir, align.FileEnrichment), "from record"} {
			if !strings.Contains(enrich, want) {
				t.Errorf("enrichment section lacks %q", want)
			}
		}
		source := runtest.SectionText(t, doc, "source")
		for _, want := range []string{"127.0.0.1", "explicit: report fixture", "Stage probe done", "probing (probe-run.json", "alignment (PARIS)", "bookshop-kb.nt"} {
			if !strings.Contains(source, want) {
				t.Errorf("source section lacks %q", want)
			}
		}
		if !strings.Contains(form, "(probed)") {
			t.Error("form section does not list the forms found on the page")
		}
	})

	t.Run("hostile value escaped", func(t *testing.T) {
		if bytes.Contains(raw, []byte(runtest.HostileTitle)) {
			t.Fatal("the hostile title appears unescaped in report.html")
		}
		if !strings.Contains(text, runtest.HostileTitle) {
			t.Error("the hostile title is not shown as text anywhere (it should appear, escaped, among the records)")
		}
		inner, _ := html.Parse(strings.NewReader(runtest.Attr(runtest.FindAll(doc, atom.Iframe)[0], "srcdoc")))
		if !strings.Contains(runtest.Text(inner), runtest.HostileTitle) {
			t.Error("the embedded page does not show the hostile title as text")
		}
	})
}

// TestReportMissingFiles checks that a report works with what a run has: after the
// probe stage only, after extract, and without the enrichment; and that a directory
// without any run file is an error.
func TestReportMissingFiles(t *testing.T) {
	full := bookshopRun(t)
	tests := []struct {
		name       string
		keep       func(rel string) bool
		missing    []string // file names the report must say are missing
		wantInText []string
	}{
		{
			name: "after probe",
			keep: func(rel string) bool {
				return !slices.Contains(stageOutputs("extract", "schema", "graph", "align", "enrich"), rel)
			},
			missing:    []string{records.RecordsFile, schema.SchemaFile, rundir.GraphFile, align.FileTSV, align.FileEnrichment},
			wantInText: []string{report.ByExtract, report.BySchema, report.ByAlign, "Search books"},
		},
		{
			name: "after extract",
			keep: func(rel string) bool {
				return !slices.Contains(stageOutputs("schema", "graph", "align", "enrich"), rel)
			},
			missing:    []string{schema.SchemaFile, rundir.GraphFile, align.FileRun},
			wantInText: []string{report.BySchema, report.ByGraph, "Records as extracted"},
		},
		{
			name:       "no enrichment, no understanding",
			keep:       func(rel string) bool { return !slices.Contains(stageOutputs("enrich"), rel) },
			missing:    []string{align.FileEnrichment, align.FileUnderstanding},
			wantInText: []string{"rdfs:label", "understanding.json is missing"},
		},
		{
			name:       "records only",
			keep:       func(rel string) bool { return rel == records.RecordsFile },
			missing:    []string{"form.json", "probes.jsonl"},
			wantInText: []string{"Records as extracted", "the saved page is not available"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := runtest.CopyRun(t, full, tc.keep)
			res, err := report.Write(t.Context(), dir, report.Options{})
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(res.Path)
			if err != nil {
				t.Fatal(err)
			}
			doc := runtest.CheckHTML(t, raw)
			runtest.CheckSelfContained(t, doc, false)
			text := runtest.Text(doc)
			for _, m := range tc.missing {
				if !slices.Contains(res.Missing, m) {
					t.Errorf("result does not list %s as missing: %v", m, res.Missing)
				}
				said := false
				for _, div := range runtest.FindClass(doc, "missing") {
					dt := runtest.Text(div)
					if strings.Contains(dt, m) && strings.Contains(dt, "written by "+report.ProducedBy[m]) {
						said = true
					}
				}
				if !said {
					t.Errorf("report does not say that %s is missing and written by %s", m, report.ProducedBy[m])
				}
			}
			for _, w := range tc.wantInText {
				if !strings.Contains(text, w) {
					t.Errorf("report lacks %q", w)
				}
			}
		})
	}
	t.Run("not a run directory", func(t *testing.T) {
		_, err := report.Write(t.Context(), t.TempDir(), report.Options{})
		if err == nil || !strings.Contains(err.Error(), "holds none of the run files") {
			t.Errorf("empty directory: error %v", err)
		}
		if _, err := report.Write(t.Context(), filepath.Join(t.TempDir(), "nope"), report.Options{}); err == nil {
			t.Error("missing directory: no error")
		}
	})
}

// stageOutputs lists the files the stages write.
func stageOutputs(stages ...string) []string {
	files := map[string][]string{
		"extract": {records.WrapperFile, records.RecordsFile},
		"schema":  {schema.SchemaFile},
		"graph":   {rundir.GraphFile},
		"align":   {align.FileTSV, align.FileRDF, align.FileLinks, align.FileOptions, align.FileRun},
		"enrich":  {align.FileEnrichment, align.FileUnderstanding},
	}
	var out []string
	for _, s := range stages {
		out = append(out, files[s]...)
	}
	return out
}

// TestReportMalformedFiles checks that a malformed file is named with its line, that the
// report is still written, and that the error is a partial failure.
func TestReportMalformedFiles(t *testing.T) {
	full := bookshopRun(t)
	tests := []struct {
		file    string
		corrupt func(b []byte) []byte
		want    string // in the error
		check   func(t *testing.T, err error)
	}{
		{records.RecordsFile, breakLine(3), records.RecordsFile + ":3:", func(t *testing.T, err error) {
			var le *rundir.LineError
			if !errors.As(err, &le) || le.Line != 3 {
				t.Errorf("error is not a rundir.LineError at line 3: %v", err)
			}
		}},
		{rundir.GraphFile, breakLine(5), rundir.GraphFile + ":5:", func(t *testing.T, err error) {
			var pe *graph.ParseError
			if !errors.As(err, &pe) || pe.Line != 5 {
				t.Errorf("error is not a graph.ParseError at line 5: %v", err)
			}
		}},
		{"probes.jsonl", breakLine(2), "probes.jsonl:2:", nil},
		{schema.SchemaFile, func(b []byte) []byte { return bytes.Replace(b, []byte(`"features": [`), []byte(`"features": [,`), 1) }, "schema.json:", func(t *testing.T, err error) {
			if le, ok := errors.AsType[*rundir.LineError](err); !ok || le.Line < 2 || le.Col < 1 {
				t.Errorf("error is not a rundir.LineError with line and column: %v", err)
			}
		}},
		{align.FileTSV, func(b []byte) []byte { return append(b, "instance\tx\ty\tnot-a-number\n"...) }, align.FileTSV + ":", nil},
		{align.FileUnderstanding, func(b []byte) []byte { return b[:len(b)/2] }, "understanding.json:", nil},
		{"form.json", func([]byte) []byte { return []byte(`{"fields": 3}`) }, "form.json:1:12:", nil},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			dir := runtest.CopyRun(t, full, func(string) bool { return true })
			path := filepath.Join(dir, tc.file)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, tc.corrupt(b), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := report.Write(t.Context(), dir, report.Options{})
			if err == nil {
				t.Fatal("no error for a malformed file")
			}
			if !errors.Is(err, report.ErrIncomplete) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q: want a partial failure naming %q", err, tc.want)
			}
			if tc.check != nil {
				tc.check(t, err)
			}
			raw, rerr := os.ReadFile(res.Path)
			if rerr != nil {
				t.Fatalf("the report was not written: %v", rerr)
			}
			doc := runtest.CheckHTML(t, raw)
			if !strings.Contains(runtest.Text(doc), tc.want) {
				t.Errorf("the report does not show the error %q", tc.want)
			}
		})
	}
}

func breakLine(n int) func([]byte) []byte {
	return func(b []byte) []byte {
		lines := bytes.SplitAfter(b, []byte("\n"))
		if len(lines) < n {
			return append(b, "{oops\n"...)
		}
		lines[n-1] = []byte("{\"oops\" <broken\n")
		return bytes.Join(lines, nil)
	}
}

// TestReportCaps checks that a page or image over the cap is named, not embedded.
func TestReportCaps(t *testing.T) {
	dir := bookshopRun(t)
	out := filepath.Join(t.TempDir(), "small.html")
	if _, err := report.Write(t.Context(), dir, report.Options{Out: out, MaxEmbedBytes: 100}); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	doc := runtest.CheckHTML(t, raw)
	if n := len(runtest.FindAll(doc, atom.Iframe)) + len(runtest.FindAll(doc, atom.Img)); n != 0 {
		t.Errorf("%d iframes and images embedded over a 100-byte cap", n)
	}
	text := runtest.Text(doc)
	for _, want := range []string{"more than the 100 bytes cap on embedded pages", "form.png is ", "cap on embedded files"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// writeReport writes the report of the run in dir and returns it, checked as HTML.
func writeReport(t *testing.T, dir string) ([]byte, *html.Node) {
	t.Helper()
	if _, err := report.Write(t.Context(), dir, report.Options{}); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, rundir.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	return raw, runtest.CheckHTML(t, raw)
}

func countLines(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(b, []byte("\n"))
}

func readUnderstanding(t *testing.T, dir string) *align.Understanding {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, align.FileUnderstanding))
	if err != nil {
		t.Fatal(err)
	}
	var u align.Understanding
	if err := json.Unmarshal(b, &u); err != nil {
		t.Fatal(err)
	}
	return &u
}

// TestReportRecordsScreenshot checks that a screenshot of the records, when a run has
// one, is shown, and that a file there that is not a PNG is named, not embedded.
func TestReportRecordsScreenshot(t *testing.T) {
	full := bookshopRun(t)
	tests := []struct {
		name    string
		content []byte
		img     bool
		note    string
	}{
		{"png", runtest.PNG(t, 300, 200), true, ""},
		{"not a png", []byte("<svg onload=alert(1)>"), false, "screenshots/records.png is not a PNG image"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := runtest.CopyRun(t, full, func(string) bool { return true })
			if err := os.MkdirAll(filepath.Join(dir, "screenshots"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, rundir.RecordsPNG), tc.content, 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := report.Write(t.Context(), dir, report.Options{})
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := os.ReadFile(res.Path)
			doc := runtest.CheckHTML(t, raw)
			runtest.CheckSelfContained(t, doc, false)
			found := false
			for _, img := range runtest.FindAll(doc, atom.Img) {
				if runtest.Attr(img, "alt") == "result page with the records outlined (screenshots/records.png)" {
					found = true
				}
			}
			if found != tc.img {
				t.Errorf("records screenshot embedded = %v, want %v", found, tc.img)
			}
			if tc.note != "" && !strings.Contains(runtest.SectionText(t, doc, "page"), tc.note) {
				t.Errorf("page section lacks %q", tc.note)
			}
		})
	}
}

// BenchmarkReport measures building report.html of the bookshop fixture run (115
// records, 8 pages, 99 instance pairs, 971 enrichment triples).
func BenchmarkReport(b *testing.B) {
	dir := bookshopRun(b)
	var size int
	for b.Loop() {
		page, err := report.Build(b.Context(), dir, report.Options{})
		if err != nil {
			b.Fatal(err)
		}
		size = len(page.HTML)
	}
	b.ReportMetric(float64(size)/1024, "KB/report")
}

// firstProbe copies the bookshop run and returns its directory, its probe log's path
// and content, and the log's first probe as JSON fields.
func firstProbe(t *testing.T) (dir, path string, log []byte, p map[string]any) {
	t.Helper()
	dir = runtest.CopyRun(t, bookshopRun(t), func(string) bool { return true })
	path = filepath.Join(dir, "probes.jsonl")
	log, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(bytes.SplitN(log, []byte("\n"), 2)[0], &p); err != nil {
		t.Fatal(err)
	}
	return dir, path, log, p
}

// TestReportLongProbeLog checks that a long probe log starts collapsed.
func TestReportLongProbeLog(t *testing.T) {
	dir, path, b, p := firstProbe(t)
	for n := 9; n <= report.ProbesOpen+5; n++ {
		p["n"] = n
		line, _ := json.Marshal(p)
		b = append(append(b, line...), '\n')
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := report.Write(t.Context(), dir, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(res.Path)
	doc := runtest.CheckHTML(t, raw)
	tables := runtest.FindAll(runtest.ByID(doc, "probes"), atom.Table)
	if len(tables) != 1 || tables[0].Parent.DataAtom != atom.Details || runtest.HasAttr(tables[0].Parent, "open") {
		t.Errorf("the probe table of %d probes is not collapsed", report.ProbesOpen+5)
	}
	if got := runtest.SummaryValue(doc, "probes"); got != fmt.Sprint(report.ProbesOpen+5) {
		t.Errorf("summary: probes = %q, want %d", got, report.ProbesOpen+5)
	}
}

// TestReportUnansweredProbe: a probe the site did not answer (an empty query answered
// with its form page) is shown as not answered, with its reason, and not as failed.
func TestReportUnansweredProbe(t *testing.T) {
	dir, path, b, p := firstProbe(t)
	const why = "the site does not answer an empty query: the form page came back unchanged"
	p["n"], p["kind"], p["assignment"], p["terms"], p["pages"], p["unanswered"] = 99, "empty", map[string]string{}, nil, []any{}, why
	line, _ := json.Marshal(p)
	if err := os.WriteFile(path, append(append(b, line...), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := report.Write(t.Context(), dir, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(res.Path)
	runtest.CheckHTML(t, raw)
	html := string(raw)
	if !strings.Contains(html, "1 not answered") || !strings.Contains(html, why) {
		t.Errorf("the report does not show the probe not answered with its reason")
	}
	if strings.Contains(html, "failed</span>") {
		t.Errorf("the report counts a failed probe")
	}
}

// TestReportTrialsCountRecords checks that the trials behind a mapping show the records
// holding the typed value, the count the mapping is judged on: at the feature for a
// re-submission trial, at the mapping's feature for a keyword box's joint trial, and
// in any text feature for a joint trial that established no mapping.
func TestReportTrialsCountRecords(t *testing.T) {
	dir := bookshopRun(t)
	path := filepath.Join(dir, schema.SchemaFile)
	s, err := schema.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Mapping = []schema.Mapping{
		{Field: "q", FieldType: "text", Feature: "title", Method: schema.MethodJoint, Relation: "contains", Score: 1, Evidence: 1},
		{Field: "year", FieldType: "text", Feature: "date", Method: "resubmission", Relation: "contains", Score: 1, Evidence: 1},
	}
	s.Trials = []schema.Trial{
		{Field: "q", Value: "gatsby", Probe: 3, Records: 7, Held: 7, Passed: true,
			Having: map[string]int{"title": 6, "author": 7}, Holding: map[string]int{"title": 5, "author": 1}},
		{Field: "year", Feature: "date", Value: "1925", Records: 9, Instances: 12, Matched: 11, Holders: 8, Passed: true, Relation: "contains"},
		{Field: "lang", Value: "zebra", Probe: 4, Records: 3, Held: 2},
	}
	if err := s.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	_, doc := writeReport(t, dir)
	var rows []string
	for _, tr := range runtest.FindAll(doc, atom.Tr) {
		if row := strings.Join(strings.Fields(runtest.Text(tr)), " "); strings.Contains(row, "←") {
			rows = append(rows, row)
		}
	}
	for _, want := range []string{
		"q ← “gatsby” title joint 3 7 5 / 6 – passed",            // Holding / Having at the mapped feature
		"year ← “1925” date new 9 8 / 9 11 / 12 passed contains", // Holders / Records, then values
		"lang ← “zebra” any text feature 4 3 2 / 3 – not passed", // Held / Records
	} {
		if !slices.Contains(rows, want) {
			t.Errorf("no trial row %q; rows:\n%s", want, strings.Join(rows, "\n"))
		}
	}
}
