package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/runtest"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/testsites"
)

// failingBookshop serves the bookshop test site, but drops the connection of every
// result page whose query is the letter "e" (one probe of the agnostic plan): that
// probe fails after its attempts, the others succeed.
func failingBookshop(t *testing.T) (url string, dropped *atomic.Int64) {
	t.Helper()
	site, err := testsites.ByName("bookshop")
	if err != nil {
		t.Fatal(err)
	}
	dropped = &atomic.Int64{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("q") == "e" {
			dropped.Add(1)
			panic(http.ErrAbortHandler) // the browser sees net::ERR_EMPTY_RESPONSE
		}
		site.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + site.FormPath, dropped
}

// exitOf runs cmd and returns its exit status.
func exitOf(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return 0
}

// countLines counts the lines of a file.
func countLines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	n := 0
	for sc.Scan() {
		n++
	}
	return n
}

// TestRunHonestExit runs `trawl run` on a site where one probe fails: the run finishes
// (records, schema, report) but exits 3; the summary on stdout counts the failed probe;
// stdout, records.jsonl and the report show one record count; stderr prints each
// message with one prefix, and no progress line (it is not a terminal).
func TestRunHonestExit(t *testing.T) {
	runtest.NeedBrowser(t)
	u, dropped := failingBookshop(t)
	out := t.TempDir()
	cmd := trawlCmd("run", u, "--out", out, "--ignore-robots", "--delay", "0s", "--rounds", "0",
		"--max-probes", "8", "--pages-per-probe", "1", "--no-screenshots", "--max-submissions", "6", "--json")
	cmd.Env = append(cmd.Env, "TRAWL_PROGRESS_INTERVAL=500ms")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code := exitOf(t, cmd)
	if dropped.Load() == 0 {
		t.Fatalf("no probe asked for the letter e (exit %d)\n%s", code, stderr.String())
	}
	if code != exitPartial {
		t.Errorf("exit status %d with a failed probe, want %d\nstderr:\n%s", code, exitPartial, stderr.String())
	}
	var sum pipeline.Summary
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
		t.Fatalf("stdout is not the JSON summary: %v\n%s", err, stdout.String())
	}
	if sum.Failed < 1 || sum.Failed >= sum.Probes || !strings.Contains(sum.FirstError, "ERR_EMPTY_RESPONSE") {
		t.Errorf("summary: %d of %d probes failed (first: %q), want the one of the letter e", sum.Failed, sum.Probes, sum.FirstError)
	}
	recs := countLines(t, filepath.Join(sum.Dir, rundir.RecordsFile))
	b, err := os.ReadFile(filepath.Join(sum.Dir, rundir.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	inReport := runtest.SummaryValue(runtest.CheckHTML(t, b), "records")
	if sum.Records != recs || inReport != strconv.Itoa(recs) || recs == 0 {
		t.Errorf("records: %d on stdout, %d in records.jsonl, %q in the report; want one count", sum.Records, recs, inReport)
	}
	var rounds struct {
		History []pipeline.RoundSummary `json:"history"`
	}
	if err := rundir.ReadJSON(filepath.Join(sum.Dir, rundir.RoundsFile), &rounds); err != nil {
		t.Fatal(err)
	}
	if n := len(rounds.History); n == 0 || rounds.History[n-1].Records != recs {
		t.Errorf("rounds.json: %+v, want %d records", rounds.History, recs)
	}
	checkPrefixes(t, stderr.String())
	// stderr is a pipe: no progress line, no terminal control sequence.
	if s := stderr.String(); strings.ContainsAny(s, "\r\x1b") || strings.Contains(s, "so far") {
		t.Errorf("progress written to a pipe:\n%q", s)
	}
}

// checkPrefixes fails on a line of stderr that repeats a prefix ("probe: probe:") or
// stacks "trawl" prefixes.
func checkPrefixes(t *testing.T, stderr string) {
	t.Helper()
	for _, line := range strings.Split(stderr, "\n") {
		parts := strings.Split(line, ": ")
		for i := 1; i < len(parts); i++ {
			if parts[i] == parts[i-1] && len(strings.Fields(parts[i])) <= 3 {
				t.Errorf("stderr repeats the prefix %q: %s", parts[i], line)
			}
		}
		if strings.Count(line, "trawl") > 1 && strings.HasPrefix(line, "trawl: trawl") {
			t.Errorf("stderr stacks trawl prefixes: %s", line)
		}
	}
}
