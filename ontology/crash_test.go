package ontology_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/ontology"
	"github.com/trawl-dev/trawl/ontology/internal/synth"
)

// TestMain lets the test binary act as a loader process that another test kills.
func TestMain(m *testing.M) {
	if dir := os.Getenv("TRAWL_TEST_LOAD_DIR"); dir != "" {
		_, err := ontology.Load(context.Background(), dir, []ontology.Source{ontology.FileSource(os.Getenv("TRAWL_TEST_LOAD_FILE"))}, smallLoad())
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func writeSynth(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "yago.nt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := synth.Write(f, n, synth.NTriples, 7); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestKilledLoad kills a loading process (SIGKILL) while it writes the KB: the
// directory must not open as a KB, and a new load must finish it.
func TestKilledLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a loader process")
	}
	file := writeSynth(t, 120_000)
	dir := filepath.Join(t.TempDir(), "kb")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "TRAWL_TEST_LOAD_DIR="+dir, "TRAWL_TEST_LOAD_FILE="+file)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// Kill it once it writes tables, or after it has started for a while.
	deadline := time.Now().Add(30 * time.Second)
	killedAt := ""
	for killedAt == "" {
		select {
		case err := <-done:
			t.Fatalf("the load finished before it could be killed (%v); make the input larger", err)
		case <-time.After(2 * time.Millisecond):
		}
		ssts, _ := filepath.Glob(filepath.Join(dir, "badger", "*.sst"))
		if len(ssts) > 0 {
			killedAt = "while writing tables"
		} else if time.Now().After(deadline) {
			killedAt = "before writing tables"
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-done
	t.Logf("killed %s", killedAt)
	if st, err := ontology.Open(dir, ontology.DefaultOptions()); !errors.Is(err, ontology.ErrIncomplete) {
		if err == nil {
			st.Close()
		}
		t.Fatalf("a killed load opens: %v", err)
	}
	rep, err := ontology.Load(t.Context(), dir, []ontology.Source{ontology.FileSource(file)}, smallLoad())
	if err != nil {
		t.Fatalf("load again: %v", err)
	}
	st, err := ontology.Open(dir, ontology.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.Stats().Facts != rep.Facts || rep.Facts < 110_000 {
		t.Errorf("reloaded KB has %d facts, load said %d", st.Stats().Facts, rep.Facts)
	}
}

// TestCancelledLoad cancels a load while it writes the indexes.
func TestCancelledLoad(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	dir := filepath.Join(t.TempDir(), "kb")
	opts := smallLoad()
	opts.Progress = func(p ontology.Progress) {
		if p.Phase == "index" {
			cancel()
		}
	}
	_, err := ontology.Load(ctx, dir, []ontology.Source{ontology.BytesSource("b.ttl", []byte(books), ontology.FormatTurtle)}, opts)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled load: %v", err)
	}
	if _, err := ontology.Open(dir, ontology.DefaultOptions()); !errors.Is(err, ontology.ErrIncomplete) {
		t.Fatalf("open a cancelled load: %v", err)
	}
}

// TestSpilledRuns loads the same data with a sort buffer far too small for it, so
// that sorted runs go to files and are merged, and checks the KB is the same.
func TestSpilledRuns(t *testing.T) {
	file := writeSynth(t, 60_000)
	big := smallLoad()
	big.SortMemoryMB = 512
	small := smallLoad()
	small.SortMemoryMB = 4
	small.Workers = 3
	a, ra, err := ontology.LoadMemory(t.Context(), []ontology.Source{ontology.FileSource(file)}, big)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, rb, err := ontology.LoadMemory(t.Context(), []ontology.Source{ontology.FileSource(file)}, small)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if ra.SpillRuns != 0 || rb.SpillRuns < 2 {
		t.Errorf("spill runs: %d and %d", ra.SpillRuns, rb.SpillRuns)
	}
	sa, sb := a.Stats(), b.Stats()
	if ra.Facts != rb.Facts || sa.Nodes != sb.Nodes || sa.Literals != sb.Literals || sa.Entities != sb.Entities || sa.Classes != sb.Classes {
		t.Errorf("in memory: %+v\nspilled: %+v", ra, rb)
	}
	for i := range sa.Relations {
		if sa.Relations[i] != sb.Relations[i] {
			t.Errorf("relation %v vs %v", sa.Relations[i], sb.Relations[i])
		}
	}
	ta, tb := storedTriples(t, a), storedTriples(t, b)
	if len(ta) != len(tb) {
		t.Fatalf("%d vs %d triples", len(ta), len(tb))
	}
	for i := range ta {
		if ta[i] != tb[i] {
			t.Fatalf("triple %d: %s vs %s", i, ta[i], tb[i])
		}
	}
	for _, q := range []string{"Country kaka 0", "1850", "Class ka 0"} {
		ca, _ := a.Candidates(t.Context(), q, 50)
		cb, _ := b.Candidates(t.Context(), q, 50)
		if len(ca) == 0 || len(ca) != len(cb) {
			t.Errorf("Candidates(%q): %d vs %d", q, len(ca), len(cb))
		}
	}
}
