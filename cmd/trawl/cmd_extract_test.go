package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/output"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/runtest"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
)

func TestRunExtractRunDir(t *testing.T) {
	dir := t.TempDir()
	want := runtest.BookshopProbes(t, dir, map[string]string{"life": "term", "love": "term", "dead": "term", "the": "stopword", "qzxwvkjptr": "nonsense"})
	var out, errOut bytes.Buffer
	g := globalOptions{stderr: &errOut}
	o := extractOptions{RunDir: dir, Mode: "records", Regions: "best", Signifiers: "auto", TopK: 10, JSON: true}
	if err := runExtract(t.Context(), g, o, &out); err != nil {
		t.Fatalf("runExtract: %v\n%s", err, errOut.String())
	}
	recs, err := rundir.DecodeJSONL[records.Record](&out, "stdout")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != want {
		t.Errorf("printed %d records, the pages hold %d", len(recs), want)
	}
	for _, r := range recs {
		if !strings.HasPrefix(r.XPath, "/html[1]/body[1]/") || len(r.Leaves) == 0 || !strings.HasPrefix(r.Page, "pages/") {
			t.Fatalf("bad record %+v", r)
		}
		if r.Leaves[0].Href == "" || !strings.HasPrefix(r.Leaves[0].Href, "http://127.0.0.1") {
			t.Errorf("title link not absolute: %+v", r.Leaves[0])
		}
	}
	// run files
	f, err := os.Open(filepath.Join(dir, records.RecordsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	saved, err := rundir.DecodeJSONL[records.Record](f, records.RecordsFile)
	if err != nil || len(saved) != len(recs) {
		t.Fatalf("records.jsonl: %d records, err %v", len(saved), err)
	}
	var w records.Wrapper
	b, err := os.ReadFile(filepath.Join(dir, records.WrapperFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	if w.XPath == "" || len(w.Pages) != 5 {
		t.Fatalf("wrapper: xpath %q, %d pages", w.XPath, len(w.Pages))
	}
	if c := w.Pages[4]; c.Class != records.ClassError {
		t.Errorf("nonsense page class %q, want error", c.Class)
	}
	var sum output.ExtractSummary
	if err := json.Unmarshal(errOut.Bytes()[bytes.LastIndexByte(errOut.Bytes()[:errOut.Len()-1], '\n')+1:], &sum); err != nil {
		t.Fatalf("--json summary: %v\n%s", err, errOut.String())
	}
	if sum.Records != want {
		t.Errorf("summary records %d, want %d", sum.Records, want)
	}
}

func TestRunExtractPages(t *testing.T) {
	dir := t.TempDir()
	runtest.BookshopProbes(t, dir, map[string]string{})
	page := filepath.Join(dir, "pages", "0001-1.html")
	var out bytes.Buffer
	wrapper := filepath.Join(dir, "w.json")
	o := extractOptions{Pages: []string{page}, Query: "life", Mode: "records", Regions: "best", Signifiers: "auto", TopK: 10, Wrapper: wrapper}
	if err := runExtract(t.Context(), globalOptions{stderr: io.Discard}, o, &out); err != nil {
		t.Fatal(err)
	}
	recs, err := rundir.DecodeJSONL[records.Record](&out, "stdout")
	if err != nil || len(recs) != 20 {
		t.Fatalf("%d records, err %v; want the 20 rows of the first result page", len(recs), err)
	}
	if _, err := os.Stat(wrapper); err != nil {
		t.Errorf("wrapper not written: %v", err)
	}
}

func TestRunExtractBadInput(t *testing.T) {
	dir := t.TempDir()
	g := globalOptions{stderr: io.Discard}
	base := extractOptions{Mode: "records", Regions: "best", Signifiers: "auto", TopK: 10}

	o := base
	o.RunDir = filepath.Join(dir, "missing")
	if err := runExtract(t.Context(), g, o, io.Discard); exitCode(err, io.Discard) != exitUsage {
		t.Errorf("missing run dir: %v, want a usage error", err)
	}

	o.RunDir = dir
	if err := runExtract(t.Context(), g, o, io.Discard); err == nil || !strings.Contains(err.Error(), "probes.jsonl") {
		t.Errorf("no probes.jsonl: %v", err)
	}

	if err := os.WriteFile(filepath.Join(dir, probe.ProbesFile), []byte("{\"n\":1}\nnot json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := runExtract(t.Context(), g, o, io.Discard)
	var le *probe.ProbeLineError
	if !errors.As(err, &le) || le.Line != 2 {
		t.Errorf("bad probes.jsonl line: %v, want line 2", err)
	}

	// a page file is missing: the other pages are extracted, the exit is partial
	run := t.TempDir()
	runtest.BookshopProbes(t, run, map[string]string{"qzxwvkjptr": "nonsense"})
	if err := os.Remove(filepath.Join(run, "pages", "0002-1.html")); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	o.RunDir = run
	err = runExtract(t.Context(), g, o, &out)
	if !errors.Is(err, errPartial) || !strings.Contains(err.Error(), "0002-1.html") {
		t.Errorf("missing page: %v, want a partial failure naming the file", err)
	}
	if recs, _ := rundir.DecodeJSONL[records.Record](&out, "stdout"); len(recs) == 0 {
		t.Error("missing page: the other pages' records were lost")
	}

	// bad options
	o = base
	o.Pages = []string{filepath.Join(run, "pages", "0001-1.html")}
	o.Regions = "some"
	if err := runExtract(t.Context(), g, o, io.Discard); !errors.Is(err, errUsage) {
		t.Errorf("bad --regions: %v, want a usage error", err)
	}
}
