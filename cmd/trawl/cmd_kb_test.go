package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/output"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/internal/testutil"
)

func TestKBLoadStatsLookup(t *testing.T) {
	dir := testutil.SharedData(t, "yago3-10")
	kb := filepath.Join(t.TempDir(), "kb")
	var out, errb bytes.Buffer
	g := globalOptions{}
	o := kbLoadOptions{KB: kb, Format: "auto", MaxErrors: 0, SortMemoryMB: 64, Workers: 2, JSON: true}
	err := runKBLoad(t.Context(), g, o, []string{filepath.Join(dir, "test.txt"), filepath.Join(dir, "valid.txt")}, &out, &errb)
	if err != nil {
		t.Fatalf("load: %v\n%s", err, errb.String())
	}
	var sum output.LoadSummary
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		t.Fatalf("load --json output: %v\n%s", err, out.String())
	}
	if sum.Facts < 10000 || sum.BadLines != 0 || len(sum.Sources) != 2 || sum.Sources[0].Format != "tsv" || sum.CPUSeconds <= 0 {
		t.Errorf("summary %+v", sum)
	}

	out.Reset()
	if err := runKBStats(t.Context(), g, kbStatsOptions{KB: kb, Top: 5}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "http://yago-knowledge.org/resource/isAffiliatedTo") || !strings.Contains(out.String(), "fun⁻¹") {
		t.Errorf("stats:\n%s", out.String())
	}
	out.Reset()
	if err := runKBStats(t.Context(), g, kbStatsOptions{KB: kb, Top: 0, JSON: true}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	var st output.StatsJSON
	if err := json.Unmarshal(out.Bytes(), &st); err != nil || st.NumRels < 30 || len(st.Relations) != st.NumRels ||
		!strings.Contains(out.String(), `"iri": "http://www.w3.org/2000/01/rdf-schema#label"`) {
		t.Errorf("stats --json: %v, %d relations listed of %d", err, len(st.Relations), st.NumRels)
	}

	out.Reset()
	if err := runKBLookup(t.Context(), g, kbLookupOptions{KB: kb, Limit: 3, JSON: true}, "JURGEN HABERMAS", &out, &errb); err != nil {
		t.Fatal(err)
	}
	var first pipeline.LookupRow
	if err := json.Unmarshal([]byte(strings.SplitN(out.String(), "\n", 2)[0]), &first); err != nil ||
		first.Entity != "http://yago-knowledge.org/resource/Jürgen_Habermas" || !first.Exact {
		t.Errorf("lookup: %v\n%s", err, out.String())
	}

	// Loading again into the same directory needs --replace.
	err = runKBLoad(t.Context(), g, o, []string{filepath.Join(dir, "test.txt")}, &out, &errb)
	if err == nil || exitCode(err, &errb) != exitFailure {
		t.Errorf("second load: %v", err)
	}
}

func TestKBLoadBadLines(t *testing.T) {
	dump := filepath.Join(t.TempDir(), "bad.nt")
	os.WriteFile(dump, []byte("<http://a> <http://p> <http://b> .\n<http://a> <http://p> oops .\n"), 0o644)
	var out, errb bytes.Buffer
	o := kbLoadOptions{KB: filepath.Join(t.TempDir(), "kb"), Format: "auto", MaxErrors: 5, SortMemoryMB: 32, Workers: 1}
	err := runKBLoad(t.Context(), globalOptions{}, o, []string{dump}, &out, &errb)
	if !errors.Is(err, errPartial) || exitCode(err, &bytes.Buffer{}) != exitPartial {
		t.Fatalf("load with a bad line: %v", err)
	}
	if !strings.Contains(errb.String(), "bad.nt") || !strings.Contains(errb.String(), "line=2") {
		t.Errorf("stderr does not locate the bad line:\n%s", errb.String())
	}
	o.MaxErrors = 0
	o.Replace = true
	err = runKBLoad(t.Context(), globalOptions{}, o, []string{dump}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "bad.nt:2:") || !strings.Contains(err.Error(), "--max-errors") {
		t.Errorf("load past --max-errors: %v", err)
	}
	// The stopped load left no KB that opens.
	if err := runKBStats(t.Context(), globalOptions{}, kbStatsOptions{KB: o.KB}, &out, &errb); err == nil || !strings.Contains(err.Error(), "did not finish") {
		t.Errorf("stats on a stopped load: %v", err)
	}
}

func TestKBDemoDefault(t *testing.T) {
	var out, errb bytes.Buffer
	if err := runKBLookup(t.Context(), globalOptions{}, kbLookupOptions{Limit: 5}, "Hamlet (French Edition)", &out, &errb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "http://yago-knowledge.org/resource/Hamlet") || !strings.Contains(out.String(), "exact") {
		t.Errorf("lookup in the demo KB:\n%s", out.String())
	}
	out.Reset()
	if err := runKBStats(t.Context(), globalOptions{}, kbStatsOptions{Top: 3}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "built-in demo KB") {
		t.Errorf("stats of the demo KB:\n%s", out.String())
	}
	if err := runKBLookup(t.Context(), globalOptions{}, kbLookupOptions{Limit: 0}, "x", &out, &errb); !errors.Is(err, errUsage) {
		t.Errorf("--limit 0: %v", err)
	}
}
