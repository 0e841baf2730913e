package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/testutil"
)

// TestLoadProgressTerminal runs 'trawl kb load' twice on a YAGO3-10 sample: with
// stderr on a pseudo-terminal (util-linux script(1)) it draws the progress bar (bytes,
// triples and their rate); with stderr on a pipe, as in CI logs, there is no bar; and
// -q silences it on a terminal.
func TestLoadProgressTerminal(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script(1) (util-linux) is not installed: no pseudo-terminal to test with")
	}
	dump := filepath.Join(testutil.SharedData(t, "yago3-10"), "valid.txt")
	run := func(tty bool, extra ...string) string {
		t.Helper()
		kb := filepath.Join(t.TempDir(), "kb")
		args := append([]string{os.Args[0], "-test.run=^$", "--", "kb", "load", dump, "--kb", kb}, extra...)
		var cmd *exec.Cmd
		if tty {
			cmd = exec.Command(script, "-q", "-e", "-c", strings.Join(quoteAll(args), " "), "/dev/null")
		} else {
			cmd = exec.Command(args[0], args[1:]...)
		}
		cmd.Env = append(os.Environ(), "TRAWL_TEST_MAIN=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("kb load (tty %v): %v\n%s", tty, err, out)
		}
		return string(out)
	}
	if out := run(true); !strings.Contains(out, "triples (") || !strings.Contains(out, "%") {
		t.Errorf("no progress bar on a terminal:\n%q", out)
	}
	if out := run(false); strings.Contains(out, "triples (") {
		t.Errorf("a progress bar on a pipe:\n%q", out)
	}
	if out := run(true, "-q"); strings.Contains(out, "triples (") {
		t.Errorf("a progress bar with -q:\n%q", out)
	}
}

func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return out
}
