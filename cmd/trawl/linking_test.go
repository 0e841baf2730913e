package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/runtest"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/bookkb"
	"github.com/trawl-dev/trawl/internal/testutil"
)

// TestRunCalibreBookKB is issue 15's acceptance run: the whole pipeline on the real
// calibre site against a KB in YAGO 4.5 vocabulary built from the site's data with
// thousands of distractors (package bookkb, drawn with seed 16: the aligner's factors
// were tuned on seed 15). The record class must be schema:Book, the guided rounds must
// run and add records, the sameAs links must reach P ≥ 0.99 and R ≥ 0.97 against the
// known truth, and records with several authors must hold them as several values.
func TestRunCalibreBookKB(t *testing.T) {
	runtest.NeedBrowser(t)
	testutil.SharedData(t, "yago3-10")
	u := os.Getenv("TRAWL_CALIBRE_URL")
	if u == "" {
		u = "http://127.0.0.1:18082/mobile"
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Skipf("the calibre site is not running at %s (%v): scripts/sites/calibre.sh starts it", u, err)
	}
	resp.Body.Close()

	o := bookkb.DefaultOptions(testutil.SharedDir())
	o.Seed = 16
	kb, err := bookkb.Build(o)
	if err != nil {
		t.Fatal(err)
	}
	var nt bytes.Buffer
	if err := kb.WriteNT(&nt); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	kbFile := filepath.Join(dir, "kb.nt")
	if err := os.WriteFile(kbFile, nt.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	// The run is trawl built without the race detector (as the worker tests run it): 43 s
	// against 76 s under -race (load average 20), and the pipeline's concurrency on this
	// site is tested under -race by TestRunCalibre.
	cmd := exec.Command(buildTrawl(t), "run", u, "--kb", kbFile, "--out", filepath.Join(dir, "runs"), "--ignore-robots", "--delay", "100ms",
		"--no-screenshots", "--no-report", "--max-probes", "12", "--pages-per-probe", "2", "--rounds", "1",
		"--guided-values", "4", "--max-submissions", "30", "--json")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	// calibre answers an empty search with its form page unchanged: not answered, not
	// failed. Exit 3 only when a probe really failed (a busy machine).
	code := exitOf(t, cmd)
	if code != exitOK && code != exitPartial {
		t.Fatalf("trawl run: exit %d\n%s", code, stderr.String())
	}
	var sum pipeline.Summary
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	if (code == exitPartial) != (sum.Failed > 0 || sum.Unreadable > 0) {
		t.Errorf("exit %d with %d of %d probes failed (first: %s)", code, sum.Failed, sum.Probes, sum.FirstError)
	}
	s, err := kb.EvalRun(sum.Dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("calibre with bookkb-16 in %v: %v; class %s; rounds %+v; guided: %s",
		time.Since(start).Round(time.Second), s, sum.Class, sum.Rounds, sum.GuidedRounds)
	for _, e := range s.Errors {
		t.Log("  " + e)
	}
	if s.Precision < 0.99 || s.Recall < 0.97 || s.Links < 20 {
		t.Errorf("sameAs P %.3f R %.3f over %d links, want P ≥ 0.99, R ≥ 0.97", s.Precision, s.Recall, s.Links)
	}
	if !strings.Contains(sum.Class, "⊆ http://schema.org/Book ") {
		t.Errorf("record class %q, want schema:Book", sum.Class)
	}
	if n := len(sum.Rounds); n < 2 || sum.Rounds[n-1].Records <= sum.Rounds[0].Records {
		t.Errorf("guided rounds %+v (%s), want a guided round that adds records", sum.Rounds, sum.GuidedRounds)
	}
	// Authors split: a record of several authors holds each as one value of the
	// feature aligned to schema:author / rdfs:label (its name ends in "-by" on calibre).
	multi, joined := authorValues(t, filepath.Join(sum.Dir, "graph.nt"), "-by")
	if multi == 0 || joined > 0 {
		t.Errorf("%d records with several authors, %d author values holding ' & ': authors not split", multi, joined)
	}
	// Typed values at the site's precision: calibre prints "02 Jan, 1955" for a book
	// known by its year (the 2nd of January is its placeholder day), a year, not a day.
	if dt := datatypes(t, filepath.Join(sum.Dir, "graph.nt")); dt[graph.XSDGYear] == 0 || dt[graph.XSDDate] > 0 {
		t.Errorf("typed literals by datatype %v: want years (xsd:gYear) and no xsd:date", dt)
	}
}

// datatypes counts the typed literals of a run's graph.nt by datatype.
func datatypes(t *testing.T, file string) map[string]int {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]int{}
	rd := graph.NewReader(f, file)
	for {
		tr, err := rd.Read()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if tr.O.IsLiteral() && tr.O.Datatype != "" {
			out[tr.O.Datatype]++
		}
	}
}

// authorValues reads a run's graph.nt and counts the records with several values of
// the features whose IRI ends in suffix, and the values that hold " & ".
func authorValues(t *testing.T, file, suffix string) (multi, joined int) {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := map[string]int{}
	rd := graph.NewReader(f, file)
	for {
		tr, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !tr.O.IsLiteral() || !strings.HasSuffix(tr.P.Value, suffix) {
			continue
		}
		n[tr.S.Value]++
		if strings.Contains(tr.O.Value, " & ") {
			joined++
		}
	}
	for _, c := range n {
		if c > 1 {
			multi++
		}
	}
	return multi, joined
}
