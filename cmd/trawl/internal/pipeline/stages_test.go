package pipeline

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/internal/rundir"
)

// fakeStages builds a three-stage pipeline over dir: a writes a.txt from the seed, b
// derives b.txt from a.txt, c derives c.txt from b.txt. Each stage sleeps a little so
// that a kill can land inside it, and counts its runs in runs.log.
func fakeStages(dir string, seed string, pause time.Duration) []stage {
	count := func(name string) {
		f, err := os.OpenFile(filepath.Join(dir, "runs.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, name)
			f.Close()
		}
	}
	derive := func(name, in, out string) stage {
		return stage{
			name: name, inputs: []string{in}, outputs: []string{out},
			run: func(ctx context.Context) error {
				count(name)
				data, err := os.ReadFile(filepath.Join(dir, in))
				if err != nil {
					return err
				}
				time.Sleep(pause)
				return rundir.WriteFile(filepath.Join(dir, out), []byte(strings.ToUpper(string(data))+name+"\n"))
			},
		}
	}
	return []stage{
		{
			name: "a", outputs: []string{"a.txt"}, options: map[string]string{"seed": seed},
			run: func(ctx context.Context) error {
				count("a")
				time.Sleep(pause)
				return rundir.WriteFile(filepath.Join(dir, "a.txt"), []byte("seed "+seed+"\n"))
			},
		},
		derive("b", "a.txt", "b.txt"),
		derive("c", "b.txt", "c.txt"),
	}
}

func readRuns(t *testing.T, dir string) []string {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(dir, "runs.log"))
	return strings.Fields(string(data))
}

func TestRunStagesSkipsFinishedStages(t *testing.T) {
	dir := t.TempDir()
	ctx := t.Context()
	if err := runStages(ctx, dir, fakeStages(dir, "1", 0), false, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := runStages(ctx, dir, fakeStages(dir, "1", 0), false, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(readRuns(t, dir), ","); got != "a,b,c" {
		t.Errorf("second run redid work: runs %s", got)
	}
	// A changed option re-runs the stage and everything after it.
	if err := runStages(ctx, dir, fakeStages(dir, "2", 0), false, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(readRuns(t, dir), ","); got != "a,b,c,a,b,c" {
		t.Errorf("runs after an option change: %s", got)
	}
	// A deleted output re-runs its stage (and the later ones).
	os.Remove(filepath.Join(dir, "c.txt"))
	if err := runStages(ctx, dir, fakeStages(dir, "2", 0), false, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(readRuns(t, dir), ","); got != "a,b,c,a,b,c,c" {
		t.Errorf("runs after deleting c.txt: %s", got)
	}
	// force re-runs everything.
	if err := runStages(ctx, dir, fakeStages(dir, "2", 0), true, nil, nil); err != nil {
		t.Fatal(err)
	}
	if n := len(readRuns(t, dir)); n != 10 {
		t.Errorf("force: %d runs, want 10", n)
	}
}

func TestRunStagesStopsAtFirstError(t *testing.T) {
	dir := t.TempDir()
	boom := errors.New("boom")
	st := fakeStages(dir, "1", 0)
	st[1].run = func(context.Context) error { return boom }
	err := runStages(t.Context(), dir, st, false, nil, nil)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "b:") {
		t.Fatalf("err = %v, want the stage name and the cause", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "c.txt")); err == nil {
		t.Error("stage c ran after b failed")
	}
	if _, err := os.Stat(filepath.Join(dir, rundir.MarkerFile("a"))); err != nil {
		t.Error("stage a's marker is missing: finished work would be redone")
	}
}

// TestStagesHelperProcess is not a test: it is the child process of TestKillResume.
func TestStagesHelperProcess(t *testing.T) {
	dir := os.Getenv("TRAWL_STAGES_HELPER_DIR")
	if dir == "" {
		t.Skip("helper process for TestKillResume; runs only as its child")
	}
	if err := runStages(context.Background(), dir, fakeStages(dir, "k", 30*time.Millisecond), false, nil, nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// TestKillResume kills a pipeline with SIGKILL at random moments, twice, then lets it
// finish: the outputs equal those of an uninterrupted run, and no finished stage ran
// twice.
func TestKillResume(t *testing.T) {
	want := t.TempDir()
	if err := runStages(t.Context(), want, fakeStages(want, "k", 0), false, nil, nil); err != nil {
		t.Fatal(err)
	}
	for trial := range 5 {
		dir := t.TempDir()
		for kill := range 2 {
			cmd := exec.Command(os.Args[0], "-test.run=^TestStagesHelperProcess$")
			cmd.Env = append(os.Environ(), "TRAWL_STAGES_HELPER_DIR="+dir)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Duration(rand.IntN(90)) * time.Millisecond)
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()
			t.Logf("trial %d kill %d: runs so far %v", trial, kill, readRuns(t, dir))
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestStagesHelperProcess$")
		cmd.Env = append(os.Environ(), "TRAWL_STAGES_HELPER_DIR="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("resume: %v\n%s", err, out)
		}
		for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
			g, _ := os.ReadFile(filepath.Join(dir, f))
			w, _ := os.ReadFile(filepath.Join(want, f))
			if string(g) != string(w) {
				t.Errorf("trial %d: %s = %q, want %q", trial, f, g, w)
			}
		}
		// A stage runs again only if it was killed before its marker was written.
		runs := readRuns(t, dir)
		seen := map[string]int{}
		for _, r := range runs {
			seen[r]++
		}
		for name, n := range seen {
			if n > 3 {
				t.Errorf("trial %d: stage %s ran %d times (%v)", trial, name, n, runs)
			}
		}
	}
}
