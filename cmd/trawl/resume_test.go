package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/runtest"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
)

// TestBatchResumesProbes kills a real `trawl batch` process (SIGKILL) in the middle of
// a source's probe stage and starts it again: the probes the killed process finished
// stay in probes.jsonl as they were (same lines, same pages), the plan goes on after
// them, and the source ends with the probes an uninterrupted run makes.
func TestBatchResumesProbes(t *testing.T) {
	runtest.NeedBrowser(t)
	u := slowBookshop(t, 300*time.Millisecond)
	jobs := filepath.Join(t.TempDir(), "jobs.txt")
	if err := os.WriteFile(jobs, []byte(u+" max-probes=8 pages-per-probe=1 rounds=0 resubmit=false delay=0s no-report=true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	dir := filepath.Join(out, rundir.Name(u, ""))
	log := filepath.Join(dir, rundir.ProbesFile)

	cmd := trawlCmd("batch", jobs, "--out", out, "--concurrency", "1", "--ignore-robots", "-q")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(90 * time.Second)
	var before []string
	for time.Now().Before(deadline) {
		if before = completeLines(log); len(before) >= 3 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	before = completeLines(log)
	if len(before) < 3 || len(before) >= 8 {
		t.Fatalf("killed with %d probes in %s, want the probe stage under way\n%s", len(before), log, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, rundir.MarkerFile("probe"))); err == nil {
		t.Fatal("the probe stage had finished before the kill")
	}
	t.Logf("killed after %d probes", len(before))

	cmd = trawlCmd("batch", jobs, "--out", out, "--concurrency", "1", "--ignore-robots", "-q")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("trawl batch after the kill: %v\n%s", err, b)
	}
	after := completeLines(log)
	kept := map[string]bool{}
	for _, l := range after {
		kept[l] = true
	}
	for _, l := range before {
		if !kept[l] {
			t.Errorf("a probe finished before the kill was not kept as it was:\n%s", l)
		}
	}
	probes, err := probe.ReadProbes(dir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, p := range probes {
		b, _ := json.Marshal(p.Assignment)
		seen[p.Kind+string(b)]++
		if seen[p.Kind+string(b)] > 1 {
			t.Errorf("probe %d (%s %s) made twice", p.N, p.Kind, b)
		}
		for _, ref := range p.Pages {
			if _, err := os.Stat(filepath.Join(dir, ref.File)); err != nil {
				t.Errorf("probe %d: %v", p.N, err)
			}
		}
	}
	if len(probes) != 8 {
		t.Errorf("%d probes after the resumed run, want the 8 of --max-probes", len(probes))
	}
}

// completeLines returns the complete lines of a JSON-lines file (a line being written
// has no newline yet).
func completeLines(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	i := bytes.LastIndexByte(b, '\n')
	if i < 0 {
		return nil
	}
	return strings.Split(string(b[:i]), "\n")
}
