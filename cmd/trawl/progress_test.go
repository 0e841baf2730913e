package main

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/runtest"
	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/internal/testutil"
)

// slowBookshop serves the bookshop test site with every result page late by delay, so
// that the stages that submit the form last several progress intervals.
func slowBookshop(t *testing.T, delay time.Duration) string {
	t.Helper()
	site, err := testsites.ByName("bookshop")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery != "" {
			time.Sleep(delay)
		}
		site.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + site.FormPath
}

// runOnPty runs cmd with its standard streams on a pseudo-terminal and returns all it
// wrote and its exit status.
func runOnPty(t *testing.T, cmd *exec.Cmd) (string, int) {
	t.Helper()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 200})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	_, err = io.Copy(&out, f) // ends with EIO once the child closed the terminal
	if err != nil && !errors.Is(err, syscall.EIO) {
		t.Fatal(err)
	}
	code := 0
	var ee *exec.ExitError
	if err := cmd.Wait(); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

var (
	// stageDoneRE matches the line StagePrinter writes when a stage ends.
	stageDoneRE = regexp.MustCompile(`(?m)^  (\S+ *) (\d[\d.]*(?:ms|s|m\S*))\s*$`)
	// progressRE matches a progress bar: a spinner when the total is unknown, the
	// stage, count (of total), rate or time.
	progressRE = regexp.MustCompile(`\r\x1b\[K(?:[-|/\\] )?  (\S+)\s+(?:(\d+)(?:/(\d+))? ([a-z-]+)(?: \(\d+ failed\))?, [\d.]+/(?:s|min)|[^\r]*running for)`)
)

// TestProgressOnTerminal runs `trawl run` under a pseudo-terminal on a slow site: every
// stage that lasts two progress intervals or more shows a progress line, and the probe
// stage's line counts its probes with a rate. (TestRunHonestExit checks that a run on
// a pipe writes no progress line.)
func TestProgressOnTerminal(t *testing.T) {
	runtest.NeedBrowser(t)
	t.Parallel() // a slow site: mostly waiting
	u := slowBookshop(t, 400*time.Millisecond)
	args := []string{"run", u, "--ignore-robots", "--delay", "0s", "--rounds", "0", "--max-probes", "6",
		"--pages-per-probe", "1", "--no-screenshots", "--no-report", "--max-submissions", "4", "--tabs", "1"}
	const interval = time.Second

	cmd := trawlCmd(append(args, "--out", t.TempDir())...)
	cmd.Env = append(cmd.Env, "TRAWL_PROGRESS_INTERVAL="+interval.String())
	out, code := runOnPty(t, cmd)
	if code != 0 {
		t.Fatalf("trawl run on a terminal: exit %d\n%s", code, out)
	}
	seen := map[string][]string{}
	for _, m := range progressRE.FindAllStringSubmatch(out, -1) {
		seen[m[1]] = append(seen[m[1]], strings.TrimSpace(strings.TrimPrefix(m[0], "\r\x1b[K")))
	}
	long := 0
	for _, m := range stageDoneRE.FindAllStringSubmatch(strings.ReplaceAll(out, "\r\x1b[K", "\n"), -1) {
		d, err := time.ParseDuration(m[2])
		if len(m[1]) != 10 || err != nil || d < 2*interval { // StagePrinter pads the name to 10
			continue
		}
		m[1] = strings.TrimSpace(m[1])
		long++
		t.Logf("stage %s: %v, %d progress lines", m[1], d, len(seen[m[1]]))
		if len(seen[m[1]]) == 0 {
			t.Errorf("stage %s took %v and showed no progress line", m[1], d)
		}
	}
	if long == 0 {
		t.Fatalf("no stage lasted %v: the site is not slow enough to test progress\n%q", 2*interval, out)
	}
	probeLine := regexp.MustCompile(`^probe\s+\d+/6 probes, [\d.]+/(s|min)`)
	found := false
	for _, l := range seen["probe"] {
		found = found || probeLine.MatchString(l)
	}
	if !found {
		t.Errorf("no progress line of the probe stage with its count and rate: %q", seen["probe"])
	}
}

// TestLoadProgressTerminal runs 'trawl kb load' on a YAGO3-10 sample: on a pseudo-
// terminal it redraws the progress bar (phase, triples and their rate, bytes read of all); on a pipe, as
// in CI logs, and with -q on a terminal it draws none.
func TestLoadProgressTerminal(t *testing.T) {
	dump := filepath.Join(testutil.SharedData(t, "yago3-10"), "valid.txt")
	load := func(extra ...string) *exec.Cmd {
		cmd := trawlCmd(append([]string{"kb", "load", dump, "--kb", filepath.Join(t.TempDir(), "kb")}, extra...)...)
		cmd.Env = append(cmd.Env, "TRAWL_PROGRESS_INTERVAL=2ms")
		return cmd
	}
	line := regexp.MustCompile(`\r\x1b\[K  kb load: (parse|index|done), \d+ triples \(\d+/s\) +\d+% \|[^|]*\| \([\d.]+ ?[KMG]?i?B?/[\d.]+ [KMG]?i?B`)
	out, code := runOnPty(t, load())
	if code != 0 || !line.MatchString(out) {
		t.Errorf("kb load on a terminal: exit %d, no progress line:\n%q", code, out)
	}
	out, code = runOnPty(t, load("-q"))
	if code != 0 || strings.Contains(out, "kb load: ") {
		t.Errorf("kb load -q on a terminal: exit %d, a progress line:\n%q", code, out)
	}
	b, err := load().CombinedOutput()
	if err != nil || strings.Contains(string(b), "\x1b[K") {
		t.Errorf("kb load on a pipe: %v, a progress line:\n%q", err, b)
	}
}
