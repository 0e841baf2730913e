package main

import (
	"bytes"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/runtest"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/testsites"
)

// TestRunStagesShareOneImplementation runs the whole pipeline of 'trawl run' in this
// process on the demo site (one guided round) and checks the two promises of the
// pipeline (issue 12):
//   - each stage hands its results on in memory: probes.jsonl and records.jsonl are
//     parsed at most once per stage (rundir counts the parses);
//   - 'trawl align RUN_DIR' is the align stage of 'trawl run': on a copy of the run
//     without the alignment files, it writes them again byte for byte.
func TestRunStagesShareOneImplementation(t *testing.T) {
	runtest.NeedBrowser(t)
	site := testsites.Demo()
	srv := httptest.NewServer(site.Handler)
	defer srv.Close()
	o := pipeline.DemoOptions()
	o.URL = srv.URL + site.FormPath
	o.Dir = filepath.Join(t.TempDir(), rundir.Name(o.URL, ""))
	o.Probe.Screenshots = false
	files := []string{rundir.ProbesFile, rundir.RecordsFile}
	last, first := map[string]int64{}, map[string]int64{}
	for _, f := range files {
		last[f] = rundir.Parses(f)
		first[f] = last[f]
	}
	var stages []string
	o.Progress = func(ev pipeline.Event) {
		stages = append(stages, ev.Stage)
		for _, f := range files {
			n := rundir.Parses(f)
			if n-last[f] > 1 {
				t.Errorf("stage %s parsed %s %d times", ev.Stage, f, n-last[f])
			}
			last[f] = n
		}
	}
	p := pipeline.New(o, nil)
	sum, err := p.Run(t.Context())
	p.Close()
	if err != nil {
		t.Fatal(err)
	}
	if v := site.Violations(); len(v) > 0 {
		t.Fatalf("forbidden requests: %v", v)
	}
	t.Logf("stages %v: %d records, %d links; parses in all: probes.jsonl %d, records.jsonl %d",
		stages, sum.Records, sum.Links, rundir.Parses(rundir.ProbesFile)-first[rundir.ProbesFile], rundir.Parses(rundir.RecordsFile)-first[rundir.RecordsFile])
	if !slices.Contains(stages, "align-1") || sum.Links == 0 {
		t.Fatalf("the run did not reach a guided round with links (stages %v, %d links)", stages, sum.Links)
	}

	alignFiles := []string{rundir.AlignmentTSV, rundir.AlignmentRDF, rundir.LinksFile, rundir.AlignOptionsFile,
		rundir.AlignRunFile, rundir.UnderstandingFile, rundir.EnrichmentFile}
	again := runtest.CopyRun(t, o.Dir, func(rel string) bool { return !slices.Contains(alignFiles, rel) })
	if _, stderr, code := runCLI(t, "align", "-q", again); code != exitOK {
		t.Fatalf("trawl align RUN_DIR: exit %d: %s", code, stderr)
	}
	for _, f := range alignFiles {
		want, err := os.ReadFile(filepath.Join(o.Dir, f))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(again, f))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: trawl align RUN_DIR wrote %d bytes (%v), trawl run's align stage %d, and they differ", f, len(got), err, len(want))
		}
	}
}

// TestRunRefusesAnotherFormsDirectory: a run directory written by an earlier trawl for
// another form of the same page (the query was not part of the name then) is not taken
// for this form's run: trawl run stops with a usage error naming both forms.
func TestRunRefusesAnotherFormsDirectory(t *testing.T) {
	out := t.TempDir()
	url := "http://127.0.0.1:1/editor/"
	dir := filepath.Join(out, rundir.Name(url, ""))
	if err := rundir.WriteJSON(filepath.Join(dir, rundir.ProbeRunFile), map[string]string{"url": url + "?select=film"}); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCLI(t, "run", url, "--out", out, "-q")
	if code != exitUsage || !strings.Contains(stderr, "?select=film") || !strings.Contains(stderr, "holds the run of") {
		t.Errorf("exit %d, stderr %q; want a usage error naming the other form", code, stderr)
	}
}
