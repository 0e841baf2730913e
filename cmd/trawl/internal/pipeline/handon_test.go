package pipeline_test

import (
	"path/filepath"
	"testing"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/runtest"
	"github.com/trawl-dev/trawl/internal/rundir"
)

// TestStagesHandOnInMemory runs the offline stages of one pipeline on a probed run
// directory (the bookshop site, probed over HTTP): the probe log is parsed once, by
// the extract stage, and the records never, since each stage hands its results to the
// next in memory.
func TestStagesHandOnInMemory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	runtest.BookshopProbes(t, dir, map[string]string{"life": "term", "love": "term", "dead": "term", "the": "stopword", "qzxwvkjptr": "nonsense"})
	o := pipeline.DefaultOptions()
	o.Dir, o.KB = dir, runtest.WriteKB(t, runtest.BookshopKB(runtest.BookshopSite(t)))
	o.Probe.Screenshots, o.Resubmit = false, false
	p := pipeline.New(o, nil)
	defer p.Close()
	probes0, records0 := rundir.Parses(rundir.ProbesFile), rundir.Parses(rundir.RecordsFile)
	for _, stage := range []string{"extract", "schema", "graph", "align"} {
		if err := p.RunStage(t.Context(), stage); err != nil {
			t.Fatalf("%s: %v", stage, err)
		}
	}
	if n := rundir.Parses(rundir.ProbesFile) - probes0; n != 1 {
		t.Errorf("probes.jsonl parsed %d times, want once (by the extract stage)", n)
	}
	if n := rundir.Parses(rundir.RecordsFile) - records0; n != 0 {
		t.Errorf("records.jsonl parsed %d times, want never (the extract stage hands the records on)", n)
	}
	// A new pipeline over the same directory reads each file once.
	p2 := pipeline.New(o, nil)
	defer p2.Close()
	records1 := rundir.Parses(rundir.RecordsFile)
	if _, err := p2.Align(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := rundir.Parses(rundir.RecordsFile) - records1; n != 1 {
		t.Errorf("a fresh align stage parsed records.jsonl %d times, want once", n)
	}
}
