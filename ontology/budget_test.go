//go:build linux

package ontology_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/ontology"
	"github.com/trawl-dev/trawl/ontology/internal/synth"
)

// budgetChildEnv names the dump that TestLoadBudgetBoundsPeak's child process loads.
const budgetChildEnv = "TRAWL_TEST_BUDGET_DUMP"

// TestLoadBudgetBoundsPeak loads a generated dump that does not fit in a 128 MiB budget
// in a fresh process (this test binary run again), samples that process's anonymous
// resident memory (Go heap, stacks, the sort buffers; not the table files Badger
// writes through memory maps, which are page cache) every 2 ms, and checks that its
// peak stays within the budget.
func TestLoadBudgetBoundsPeak(t *testing.T) {
	const budgetMB = 128
	if dump := os.Getenv(budgetChildEnv); dump != "" {
		budgetChild(t, dump, budgetMB)
		return
	}
	if raceEnabled {
		t.Skip("the race detector's shadow memory counts in the peak; scripts/test.sh runs this test without -race")
	}
	if testing.Short() {
		t.Skip("loads 1M triples in a child process (-short)")
	}
	dir := t.TempDir()
	dump := filepath.Join(dir, "yago.nt")
	f, err := os.Create(dump)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if _, err := synth.Write(w, 1_000_000, synth.NTriples, 7); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestLoadBudgetBoundsPeak$", "-test.count=1")
	cmd.Env = append(os.Environ(), budgetChildEnv+"="+dump, "GOMEMLIMIT=", "GOGC=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child load: %v\n%s", err, out)
	}
	var peak, spilled int64 = -1, -1
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "budget-peak "); ok {
			if _, err := fmt.Sscanf(rest, "%d %d", &peak, &spilled); err != nil {
				t.Fatalf("child output %q: %v", line, err)
			}
		}
	}
	if peak < 0 {
		t.Fatalf("the child printed no peak:\n%s", out)
	}
	t.Logf("budget %d MiB: peak anonymous memory %.1f MiB, %d runs spilled", budgetMB, float64(peak)/(1<<20), spilled)
	if spilled == 0 {
		t.Errorf("the load spilled no run: the dump does not fill the %d MiB budget, so the test proves nothing", budgetMB)
	}
	if peak > budgetMB<<20 {
		t.Errorf("peak anonymous memory %.1f MiB exceeds the %d MiB budget", float64(peak)/(1<<20), budgetMB)
	}
}

// budgetChild is the child process of TestLoadBudgetBoundsPeak: it loads dump with the
// budget and prints "budget-peak PEAK_BYTES SPILLED_RUNS".
func budgetChild(t *testing.T, dump string, budgetMB int64) {
	stop := make(chan struct{})
	anon := anonRSS(stop, 2*time.Millisecond)
	opts := ontology.DefaultLoadOptions()
	opts.SortMemoryMB = budgetMB
	opts.Workers = 2 // the fixed part grows with the workers; CI's machines have two cores
	rep, err := ontology.Load(t.Context(), filepath.Join(filepath.Dir(dump), "kb"), []ontology.Source{ontology.FileSource(dump)}, opts)
	close(stop)
	peak := <-anon
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("budget-peak " + strconv.FormatInt(peak, 10) + " " + strconv.Itoa(rep.SpillRuns))
}

// TestLoadRestoresMemoryLimit checks that a load gives back the Go runtime's soft
// memory limit it lowered while it ran.
func TestLoadRestoresMemoryLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	opts := ontology.DefaultLoadOptions()
	opts.SortMemoryMB = 16
	data := []byte("<http://e/a> <http://e/p> \"x\" .\n<http://e/a> <http://e/q> <http://e/b> .\n")
	if _, err := ontology.Load(t.Context(), filepath.Join(t.TempDir(), "kb"),
		[]ontology.Source{ontology.BytesSource("a.nt", data, ontology.FormatNTriples)}, opts); err != nil {
		t.Fatal(err)
	}
	if after := debug.SetMemoryLimit(-1); after != before {
		t.Errorf("memory limit after the load %d, before %d", after, before)
	}
}
