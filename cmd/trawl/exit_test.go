package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/probe"
)

// TestREADMEExitCodes: the README's table of exit codes and 'trawl --help' state the
// same codes with the same meanings.
func TestREADMEExitCodes(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "## Exit codes")
	if !ok {
		t.Fatal("README.md has no '## Exit codes' section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	row := regexp.MustCompile(`(?m)^\| (\d+) \| (.+) \|$`)
	readme := map[int]string{}
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		n, _ := strconv.Atoi(m[1])
		readme[n] = strings.ReplaceAll(m[2], "`", "")
	}
	var help bytes.Buffer
	root := newRootCommand()
	root.SetOut(&help)
	root.SetArgs([]string{"--help"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, c := range exitCodes {
		if readme[c.Code] != c.Meaning {
			t.Errorf("README exit code %d: %q, --help: %q", c.Code, readme[c.Code], c.Meaning)
		}
		if !strings.Contains(help.String(), fmt.Sprintf("%-4d %s", c.Code, c.Meaning)) {
			t.Errorf("--help lacks exit code %d (%s):\n%s", c.Code, c.Meaning, help.String())
		}
		delete(readme, c.Code)
	}
	for code, m := range readme {
		t.Errorf("README lists exit code %d (%s) that the command does not have", code, m)
	}
}

// TestErrorMessagePrefixes: every error is printed once, with one "trawl…" prefix and
// no prefix repeated by the wrapping layers, and maps to its exit code.
func TestErrorMessagePrefixes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
		code int
	}{
		{fmt.Errorf("runs/a: probe: %w", fmt.Errorf("probe: open http://x/: %w", errors.New("net::ERR_CONNECTION_REFUSED"))),
			"trawl: runs/a: probe: open http://x/: net::ERR_CONNECTION_REFUSED", exitFailure},
		{usageError("trawl run: %q is not an http(s) URL", "ftp://x"), `trawl run: "ftp://x" is not an http(s) URL`, exitUsage},
		{fmt.Errorf("trawl probe: %w: 2 of 9 probes failed; see runs/a/probes.jsonl", errPartial),
			"trawl probe: some inputs failed: 2 of 9 probes failed; see runs/a/probes.jsonl", exitPartial},
		{fmt.Errorf("runs/a: probe: %w: the form #0 is classified \"login\"", probe.ErrNotSearchForm),
			`trawl: runs/a: probe: refused: not a search form: the form #0 is classified "login"`, exitRefused},
	} {
		var out bytes.Buffer
		code := exitCode(tc.err, &out)
		got := strings.TrimSuffix(out.String(), "\n")
		if got != tc.want || code != tc.code {
			t.Errorf("exitCode(%q) printed %q (exit %d), want %q (exit %d)", tc.err, got, code, tc.want, tc.code)
		}
	}
}
