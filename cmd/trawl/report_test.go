package main

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
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/schema"
)

// TestReport builds a complete run of the bookshop test site with the real stages and
// checks its report: valid HTML, self-contained, the key facts of every stage, the
// hostile record value escaped, and the behaviour on missing and malformed files.
func TestReport(t *testing.T) {
	dir := reportRun(t)
	if keep := os.Getenv("TRAWL_REPORT_KEEP"); keep != "" {
		defer func() { _ = os.CopyFS(keep, os.DirFS(dir)) }()
	}
	if err := writeReport(t.Context(), dir, reportOptions{}); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, reportFile))
	if err != nil {
		t.Fatal(err)
	}
	doc := checkHTML(t, raw)
	text := nodeText(doc)

	t.Run("self-contained", func(t *testing.T) {
		checkSelfContained(t, doc, false)
		frames := findAll(doc, atom.Iframe)
		if len(frames) != 1 {
			t.Fatalf("%d iframes, want 1 (the result page)", len(frames))
		}
		if attr(frames[0], "sandbox") != "" || !hasAttr(frames[0], "sandbox") {
			t.Errorf("iframe sandbox=%q: want an empty sandbox (nothing allowed)", attr(frames[0], "sandbox"))
		}
		inner, err := html.Parse(strings.NewReader(attr(frames[0], "srcdoc")))
		if err != nil {
			t.Fatal(err)
		}
		checkSelfContained(t, inner, true)
		if n := len(findClass(inner, recordClass)); n < 5 {
			t.Errorf("%d outlined records in the embedded page, want ≥ 5", n)
		}
		var alts []string
		for _, img := range findAll(doc, atom.Img) {
			alts = append(alts, attr(img, "alt"))
		}
		for _, want := range []string{"screenshot of the form (form.png)", "screenshot of the result page (pages/0002-1.png)"} {
			if !slices.Contains(alts, want) {
				t.Errorf("image %q not embedded (images: %q)", want, alts)
			}
		}
	})

	t.Run("key facts", func(t *testing.T) {
		form := sectionText(t, doc, "form")
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
		mapping := sectionText(t, doc, "mapping")
		for _, m := range s.Mapping {
			if !strings.Contains(mapping, m.Field) || !strings.Contains(mapping, m.Feature) || !strings.Contains(mapping, m.Method) {
				t.Errorf("mapping section lacks %s → %s (%s)", m.Field, m.Feature, m.Method)
			}
		}
		for _, f := range s.Features {
			if !strings.Contains(sectionText(t, doc, "schema"), f.Name) {
				t.Errorf("schema section lacks feature %s", f.Name)
			}
		}
		u := readUnderstanding(t, dir)
		alignment := sectionText(t, doc, "alignment")
		aligned := 0
		for _, r := range u.Relations {
			if r.Status != align.RelationAligned || r.Aligned == nil {
				continue
			}
			aligned++
			want := namer{}.shortPath(r.Aligned.Relation)
			if !strings.Contains(alignment, want) || !strings.Contains(alignment, conf(r.Aligned.Confidence)) {
				t.Errorf("alignment section lacks %s with confidence %s", want, conf(r.Aligned.Confidence))
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
		if got := summaryValue(doc, "sameAs links"); got != fmt.Sprint(links) {
			t.Errorf("summary: sameAs links = %q, links.nt has %d", got, links)
		}
		recs := countLines(t, filepath.Join(dir, records.RecordsFile))
		if got := summaryValue(doc, "records"); got != fmt.Sprint(recs) {
			t.Errorf("summary: records = %q, records.jsonl has %d", got, recs)
		}
		if !strings.Contains(alignment, "schema:Book") {
			t.Error("alignment section lacks the record class's KB class schema:Book")
		}
		enrich := sectionText(t, doc, "enrichment")
		if u.Enrichment == nil || u.Enrichment.NewInstances == 0 {
			t.Fatal("the fixture's enrichment has no new instance")
		}
		for _, want := range []string{fmt.Sprint(u.Enrichment.NewInstances), "new instances", filepath.Join(dir, align.FileEnrichment), "from record"} {
			if !strings.Contains(enrich, want) {
				t.Errorf("enrichment section lacks %q", want)
			}
		}
		source := sectionText(t, doc, "source")
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
		if bytes.Contains(raw, []byte(hostileTitle)) {
			t.Fatal("the hostile title appears unescaped in report.html")
		}
		if !strings.Contains(text, hostileTitle) {
			t.Error("the hostile title is not shown as text anywhere (it should appear, escaped, among the records)")
		}
		inner, _ := html.Parse(strings.NewReader(attr(findAll(doc, atom.Iframe)[0], "srcdoc")))
		if !strings.Contains(nodeText(inner), hostileTitle) {
			t.Error("the embedded page does not show the hostile title as text")
		}
	})
}

// TestReportMissingFiles checks that a report works with what a run has: after the
// probe stage only, after extract, and without the enrichment; and that a directory
// without any run file is an error.
func TestReportMissingFiles(t *testing.T) {
	full := reportRun(t)
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
			wantInText: []string{byExtract, bySchema, byAlign, "Search books"},
		},
		{
			name: "after extract",
			keep: func(rel string) bool {
				return !slices.Contains(stageOutputs("schema", "graph", "align", "enrich"), rel)
			},
			missing:    []string{schema.SchemaFile, rundir.GraphFile, align.FileRun},
			wantInText: []string{bySchema, byGraph, "Records as extracted"},
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
			dir := copyRun(t, full, tc.keep)
			res, err := writeReportResult(t.Context(), dir, reportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(res.Path)
			if err != nil {
				t.Fatal(err)
			}
			doc := checkHTML(t, raw)
			checkSelfContained(t, doc, false)
			text := nodeText(doc)
			for _, m := range tc.missing {
				if !slices.Contains(res.Missing, m) {
					t.Errorf("result does not list %s as missing: %v", m, res.Missing)
				}
				said := false
				for _, div := range findClass(doc, "missing") {
					dt := nodeText(div)
					if strings.Contains(dt, m) && strings.Contains(dt, "written by "+producedBy[m]) {
						said = true
					}
				}
				if !said {
					t.Errorf("report does not say that %s is missing and written by %s", m, producedBy[m])
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
		err := writeReport(t.Context(), t.TempDir(), reportOptions{})
		if err == nil || !strings.Contains(err.Error(), "holds none of the run files") {
			t.Errorf("empty directory: error %v", err)
		}
		if err := writeReport(t.Context(), filepath.Join(t.TempDir(), "nope"), reportOptions{}); err == nil {
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
	full := reportRun(t)
	tests := []struct {
		file    string
		corrupt func(b []byte) []byte
		want    string // in the error
		check   func(t *testing.T, err error)
	}{
		{records.RecordsFile, breakLine(3), records.RecordsFile + ":3:", func(t *testing.T, err error) {
			var le *records.LineError
			if !errors.As(err, &le) || le.Line != 3 {
				t.Errorf("error is not a records.LineError at line 3: %v", err)
			}
		}},
		{rundir.GraphFile, breakLine(5), rundir.GraphFile + ":5:", func(t *testing.T, err error) {
			var pe *graph.ParseError
			if !errors.As(err, &pe) || pe.Line != 5 {
				t.Errorf("error is not a graph.ParseError at line 5: %v", err)
			}
		}},
		{"probes.jsonl", breakLine(2), "probes.jsonl:2:", nil},
		{schema.SchemaFile, func(b []byte) []byte { return bytes.Replace(b, []byte(`"features": [`), []byte(`"features": [,`), 1) }, "schema.json: line ", nil},
		{align.FileTSV, func(b []byte) []byte { return append(b, "instance\tx\ty\tnot-a-number\n"...) }, align.FileTSV + ":", nil},
		{align.FileUnderstanding, func(b []byte) []byte { return b[:len(b)/2] }, "understanding.json: line ", nil},
		{"form.json", func([]byte) []byte { return []byte(`{"fields": 3}`) }, "form.json: line 1", nil},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			dir := copyRun(t, full, func(string) bool { return true })
			path := filepath.Join(dir, tc.file)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, tc.corrupt(b), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := writeReportResult(t.Context(), dir, reportOptions{})
			if err == nil {
				t.Fatal("no error for a malformed file")
			}
			if !errors.Is(err, errPartial) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q: want a partial failure naming %q", err, tc.want)
			}
			if tc.check != nil {
				tc.check(t, err)
			}
			raw, rerr := os.ReadFile(res.Path)
			if rerr != nil {
				t.Fatalf("the report was not written: %v", rerr)
			}
			doc := checkHTML(t, raw)
			if !strings.Contains(nodeText(doc), tc.want) {
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
	dir := reportRun(t)
	out := filepath.Join(t.TempDir(), "small.html")
	if err := writeReport(t.Context(), dir, reportOptions{Out: out, MaxEmbedBytes: 100}); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	doc := checkHTML(t, raw)
	if n := len(findAll(doc, atom.Iframe)) + len(findAll(doc, atom.Img)); n != 0 {
		t.Errorf("%d iframes and images embedded over a 100-byte cap", n)
	}
	text := nodeText(doc)
	for _, want := range []string{"more than the 100 bytes cap on embedded pages", "form.png is ", "cap on embedded files"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestReportCommand runs 'trawl report' through the root command.
func TestReportCommand(t *testing.T) {
	dir := reportRun(t)
	out := filepath.Join(t.TempDir(), "r.html")
	stdout, stderr, code := runCLI(t, "report", dir, "--out", out, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sum struct {
		Report  string   `json:"report"`
		Bytes   int      `json:"bytes"`
		Missing []string `json:"missing"`
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("--json: %v\n%s", err, stdout)
	}
	st, err := os.Stat(out)
	if err != nil || sum.Report != out || int64(sum.Bytes) != st.Size() {
		t.Errorf("summary %+v, file %v (%v)", sum, st, err)
	}
	if sum.Missing == nil || len(sum.Missing) != 0 {
		t.Errorf("missing = %#v, want [] (the fixture is a complete run)", sum.Missing)
	}
	stdout, _, code = runCLI(t, "report", dir, "--out", "-")
	if code != exitOK || !strings.HasPrefix(stdout, "<!DOCTYPE html>") {
		t.Errorf("--out -: exit %d, output starts %q", code, stdout[:min(40, len(stdout))])
	}
	// With the KB, entities are named with their labels.
	kb := filepath.Join(t.TempDir(), "kb.nt")
	site := bookshopSite(t)
	var buf bytes.Buffer
	if err := graph.WriteSorted(&buf, bookshopKB(site)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kb, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runCLI(t, "report", dir, "--kb", kb, "--out", out)
	if code != exitOK {
		t.Fatalf("--kb: exit %d: %s", code, stderr)
	}
	raw, _ := os.ReadFile(out)
	if bytes.Contains(raw, []byte("are named from their IRIs")) {
		t.Error("with --kb the report still names entities from their IRIs")
	}
	kbDoc := checkHTML(t, raw)
	if n := len(findAll(byID(kbDoc, "alignment"), atom.I)); n != 0 {
		t.Errorf("with --kb, %d KB labels are still derived from IRIs", n)
	}
	if !strings.Contains(sectionText(t, kbDoc, "alignment"), "Harry Potter and the Sorcerer's Stone yago:Harry_Potter_and_the_Sorcerer's_Stone_(book-2) Harry Potter and the Sorcerer's Stone 0.") {
		t.Error("with --kb, the KB label of a linked book is not next to the record's title")
	}
	for _, args := range [][]string{{"report"}, {"report", filepath.Join(dir, "nope")}, {"report", dir, "--max-embed", "0"}, {"report", dir, "--out", "-", "--json"}} {
		if _, _, code := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, records.RecordsFile), []byte("{\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "report", dir, "--out", out); code != exitPartial || !strings.Contains(stderr, "records.jsonl:1") {
		t.Errorf("malformed records.jsonl: exit %d, stderr %q", code, stderr)
	}
}

// ---- helpers ----

// checkHTML parses the report with golang.org/x/net/html and checks that its markup is
// balanced: every element the template opens is closed in order.
func checkHTML(t *testing.T, raw []byte) *html.Node {
	t.Helper()
	z := html.NewTokenizer(bytes.NewReader(raw))
	var stack []string
	void := map[string]bool{"meta": true, "img": true, "br": true, "input": true, "hr": true, "link": true, "col": true, "wbr": true}
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		tok := z.Token()
		switch tt {
		case html.StartTagToken:
			if !void[tok.Data] {
				stack = append(stack, tok.Data)
			}
		case html.EndTagToken:
			if len(stack) == 0 || stack[len(stack)-1] != tok.Data {
				t.Fatalf("unbalanced markup: </%s> closes %v", tok.Data, stack[max(0, len(stack)-3):])
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 {
		t.Fatalf("unclosed elements: %v", stack)
	}
	doc, err := html.Parse(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"source", "form", "probes", "page", "schema", "mapping", "alignment", "enrichment"} {
		if byID(doc, id) == nil {
			t.Errorf("no section #%s", id)
		}
	}
	return doc
}

// checkSelfContained checks that nothing in the document makes a request: no script,
// no link, no object; src only as data: URIs; no CSS url(); links only to http(s) pages
// or anchors (none at all inside an embedded page); no event handlers.
func checkSelfContained(t *testing.T, doc *html.Node, embedded bool) {
	t.Helper()
	walk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		switch n.DataAtom {
		case atom.Script, atom.Link, atom.Object, atom.Embed, atom.Base, atom.Noscript:
			t.Errorf("embedded=%v: <%s> element", embedded, n.Data)
		case atom.Style:
			if css := nodeText(n); strings.Contains(strings.ToLower(css), "url(") || strings.Contains(css, "@import") {
				t.Errorf("embedded=%v: <style> loads a resource: %.80s", embedded, css)
			}
		case atom.Iframe:
			if embedded || hasAttr(n, "src") {
				t.Errorf("embedded=%v: iframe with src or nested", embedded)
			}
		}
		for _, a := range n.Attr {
			k := strings.ToLower(a.Key)
			switch {
			case strings.HasPrefix(k, "on"):
				t.Errorf("embedded=%v: event handler %s on <%s>", embedded, a.Key, n.Data)
			case k == "src" || k == "srcset" || k == "poster" || k == "background":
				if !strings.HasPrefix(a.Val, "data:image/png;base64,") || embedded {
					t.Errorf("embedded=%v: <%s %s=%.60q>", embedded, n.Data, a.Key, a.Val)
				}
			case k == "href":
				if embedded || n.DataAtom != atom.A || !(strings.HasPrefix(a.Val, "#") || strings.HasPrefix(a.Val, "http://") || strings.HasPrefix(a.Val, "https://")) {
					t.Errorf("embedded=%v: <%s href=%.60q>", embedded, n.Data, a.Val)
				}
			case k == "style":
				if strings.Contains(strings.ToLower(a.Val), "url(") {
					t.Errorf("embedded=%v: style with url(): %.60q", embedded, a.Val)
				}
			case k == "http-equiv" && !strings.EqualFold(a.Val, "Content-Security-Policy"):
				t.Errorf("embedded=%v: meta http-equiv=%q", embedded, a.Val)
			}
		}
	})
	csp := false
	walk(doc, func(n *html.Node) {
		if n.DataAtom == atom.Meta && strings.EqualFold(attr(n, "http-equiv"), "Content-Security-Policy") && strings.Contains(attr(n, "content"), "default-src 'none'") {
			csp = true
		}
	})
	if !csp {
		t.Errorf("embedded=%v: no Content-Security-Policy forbidding requests", embedded)
	}
}

func walk(n *html.Node, fn func(*html.Node)) {
	fn(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func findAll(doc *html.Node, a atom.Atom) []*html.Node {
	var out []*html.Node
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == a {
			out = append(out, n)
		}
	})
	return out
}

func findClass(doc *html.Node, class string) []*html.Node {
	var out []*html.Node
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && slices.Contains(strings.Fields(attr(n, "class")), class) {
			out = append(out, n)
		}
	})
	return out
}

func byID(doc *html.Node, id string) *html.Node {
	var out *html.Node
	walk(doc, func(n *html.Node) {
		if out == nil && n.Type == html.ElementNode && attr(n, "id") == id {
			out = n
		}
	})
	return out
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	return slices.ContainsFunc(n.Attr, func(a html.Attribute) bool { return a.Key == key })
}

// nodeText is the text of a subtree (attribute values excluded), words separated.
func nodeText(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
			b.WriteByte(' ')
		}
	})
	return strings.Join(strings.Fields(b.String()), " ")
}

func sectionText(t *testing.T, doc *html.Node, id string) string {
	t.Helper()
	s := byID(doc, id)
	if s == nil {
		t.Fatalf("no section #%s", id)
	}
	return nodeText(s)
}

// summaryValue reads a number of the summary line.
func summaryValue(doc *html.Node, label string) string {
	for _, ul := range findClass(doc, "summary") {
		for li := ul.FirstChild; li != nil; li = li.NextSibling {
			if li.Type != html.ElementNode || li.FirstChild == nil {
				continue
			}
			if strings.TrimSpace(nodeText(li.FirstChild.NextSibling)) == label {
				return nodeText(li.FirstChild)
			}
		}
	}
	return ""
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
	full := reportRun(t)
	tests := []struct {
		name    string
		content []byte
		img     bool
		note    string
	}{
		{"png", testPNG(t, 300, 200), true, ""},
		{"not a png", []byte("<svg onload=alert(1)>"), false, "screenshots/records.png is not a PNG image"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyRun(t, full, func(string) bool { return true })
			if err := os.MkdirAll(filepath.Join(dir, "screenshots"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, fileRecordsPNG), tc.content, 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := writeReportResult(t.Context(), dir, reportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := os.ReadFile(res.Path)
			doc := checkHTML(t, raw)
			checkSelfContained(t, doc, false)
			found := false
			for _, img := range findAll(doc, atom.Img) {
				if attr(img, "alt") == "result page with the records outlined (screenshots/records.png)" {
					found = true
				}
			}
			if found != tc.img {
				t.Errorf("records screenshot embedded = %v, want %v", found, tc.img)
			}
			if tc.note != "" && !strings.Contains(sectionText(t, doc, "page"), tc.note) {
				t.Errorf("page section lacks %q", tc.note)
			}
		})
	}
}

// BenchmarkReport measures building report.html of the bookshop fixture run (115
// records, 8 pages, 99 instance pairs, 971 enrichment triples).
func BenchmarkReport(b *testing.B) {
	dir := reportRun(b)
	var size int
	for b.Loop() {
		page, _, err := buildReport(b.Context(), dir, reportOptions{})
		if err != nil {
			b.Fatal(err)
		}
		size = len(page)
	}
	b.ReportMetric(float64(size)/1024, "KB/report")
}

// TestReportLongProbeLog checks that a long probe log starts collapsed.
func TestReportLongProbeLog(t *testing.T) {
	dir := copyRun(t, reportRun(t), func(string) bool { return true })
	path := filepath.Join(dir, "probes.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(bytes.SplitN(b, []byte("\n"), 2)[0], &p); err != nil {
		t.Fatal(err)
	}
	for n := 9; n <= probesOpen+5; n++ {
		p["n"] = n
		line, _ := json.Marshal(p)
		b = append(append(b, line...), '\n')
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := writeReportResult(t.Context(), dir, reportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(res.Path)
	doc := checkHTML(t, raw)
	tables := findAll(byID(doc, "probes"), atom.Table)
	if len(tables) != 1 || tables[0].Parent.DataAtom != atom.Details || hasAttr(tables[0].Parent, "open") {
		t.Errorf("the probe table of %d probes is not collapsed", probesOpen+5)
	}
	if got := summaryValue(doc, "probes"); got != fmt.Sprint(probesOpen+5) {
		t.Errorf("summary: probes = %q, want %d", got, probesOpen+5)
	}
}
