package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
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
	t.Parallel() // a slow site: mostly waiting
	u := slowBookshop(t, 300*time.Millisecond)
	jobs := filepath.Join(t.TempDir(), "jobs.txt")
	if err := os.WriteFile(jobs, []byte(u+" max-probes=8 pages-per-probe=1 rounds=0 resubmit=false delay=0s no-report=true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	dir := filepath.Join(out, rundir.Name(u, ""))
	log := filepath.Join(dir, rundir.ProbesFile)

	stderr := killWhen(t, trawlCmd("batch", jobs, "--out", out, "--concurrency", "1", "--ignore-robots", "-q"), func() bool { return len(completeLines(log)) >= 3 })
	before := completeLines(log)
	if len(before) < 3 || len(before) >= 8 {
		t.Fatalf("killed with %d probes in %s, want the probe stage under way\n%s", len(before), log, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, rundir.MarkerFile("probe"))); err == nil {
		t.Fatal("the probe stage had finished before the kill")
	}
	t.Logf("killed after %d probes", len(before))

	cmd := trawlCmd("batch", jobs, "--out", out, "--concurrency", "1", "--ignore-robots", "-q")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("trawl batch after the kill: %v\n%s", err, b)
	}
	probes := checkResumed(t, dir, before, completeLines(log))
	if len(probes) != 8 {
		t.Errorf("%d probes after the resumed run, want the 8 of --max-probes", len(probes))
	}
}

// killWhen starts cmd, kills it (SIGKILL) once ready reports true and returns what it
// wrote on stderr. It waits as long as the process runs (no deadline of its own: a
// busy machine only makes the wait longer; go test's -timeout bounds it); a process that
// ends before ready is left to the caller's checks.
func killWhen(t *testing.T, cmd *exec.Cmd, ready func() bool) *bytes.Buffer {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	for !ready() {
		select {
		case <-exited:
			return &stderr
		case <-time.After(50 * time.Millisecond):
		}
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-exited
	return &stderr
}

// checkResumed checks a run directory after a killed run was resumed: every log line of
// before is among after as it was, no probe number or probe (kind and assignment) is
// there twice, and every page is on disk. It returns the probes.
func checkResumed(t *testing.T, dir string, before, after []string) []probe.Probe {
	t.Helper()
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
	seen, nums := map[string]int{}, map[int]bool{}
	for _, p := range probes {
		if nums[p.N] {
			t.Errorf("two probes numbered %d", p.N)
		}
		nums[p.N] = true
		b, _ := json.Marshal(p.Assignment)
		if seen[p.Kind+string(b)]++; seen[p.Kind+string(b)] > 1 {
			t.Errorf("probe %d (%s %s) made twice", p.N, p.Kind, b)
		}
		for _, ref := range p.Pages {
			if _, err := os.Stat(filepath.Join(dir, ref.File)); err != nil {
				t.Errorf("probe %d: %v", p.N, err)
			}
		}
	}
	return probes
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

// TestRunResumesGuidedRound kills a real `trawl run` process (SIGKILL) in the middle of
// its first ontology-guided round and runs the same command again: the guided probes the
// killed process finished stay in probes.jsonl as they were, the round goes on after
// them without making any of them twice, and it ends with the round's whole plan.
func TestRunResumesGuidedRound(t *testing.T) {
	runtest.NeedBrowser(t)
	t.Parallel() // a slow site: mostly waiting
	u := slowBookshop(t, 400*time.Millisecond)
	out := t.TempDir()
	dir := filepath.Join(out, rundir.Name(u, ""))
	log := filepath.Join(dir, rundir.ProbesFile)
	args := []string{"run", u, "--out", out, "--ignore-robots", "--delay", "0s", "--no-report", "--no-screenshots",
		"--max-probes", "8", "--pages-per-probe", "1", "--max-submissions", "6", "--rounds", "1", "--guided-values", "8", "--tabs", "1", "-q"}
	guided := func(lines []string) []string {
		var out []string
		for _, l := range lines {
			if strings.Contains(l, `"kind":"guided-1"`) {
				out = append(out, l)
			}
		}
		return out
	}

	stderr := killWhen(t, trawlCmd(args...), func() bool { return len(guided(completeLines(log))) >= 2 })
	before := guided(completeLines(log))
	var plan struct {
		Values map[string][]string `json:"values"`
	}
	if err := rundir.ReadJSON(filepath.Join(dir, rundir.PlanFile(1)), &plan); err != nil {
		t.Fatalf("no plan of round 1 (%v)\n%s", err, stderr.String())
	}
	planned := 0
	for _, vs := range plan.Values {
		planned += len(vs)
	}
	if len(before) < 2 || len(before) >= planned {
		t.Fatalf("killed with %d of %d guided probes in %s, want the round under way\n%s", len(before), planned, log, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, rundir.MarkerFile("guide-1"))); err == nil {
		t.Fatal("the guided round had finished before the kill")
	}
	t.Logf("killed after %d of %d guided probes", len(before), planned)

	cmd := trawlCmd(args...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("trawl run after the kill: %v\n%s", err, b)
	}
	round := 0
	for _, p := range checkResumed(t, dir, before, guided(completeLines(log))) {
		if p.Kind == "guided-1" {
			round++
		}
	}
	if round != planned {
		t.Errorf("%d guided probes after the resumed run, want the %d of the round's plan", round, planned)
	}
}
