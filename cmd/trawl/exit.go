package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/report"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
)

// Exit codes are part of the CLI contract: exitCodes below is the one table that
// 'trawl --help' prints and the README repeats (TestREADMEExitCodes holds them equal).
const (
	exitOK          = 0
	exitFailure     = 1   // any other error
	exitUsage       = 2   // bad flags or arguments
	exitPartial     = 3   // finished, but some inputs failed (see stderr)
	exitRefused     = 4   // the form guard refused to submit a form that is not a search form
	exitInterrupted = 130 // SIGINT or SIGTERM
)

// exitCodes are the exit codes with their meaning, as --help and the README state them.
var exitCodes = []struct {
	Code    int
	Meaning string
}{
	{exitOK, "success: everything asked for was done"},
	{exitFailure, "error: nothing usable was produced (the message says why)"},
	{exitUsage, "bad flags or arguments, or a directory that holds another form's run"},
	{exitPartial, "finished, but some inputs failed: probes, result pages, re-submissions, jobs or lines (counted on stderr)"},
	{exitRefused, "refused: the form is not a search form (--force-form overrides), or submits with POST without --allow-post"},
	{exitInterrupted, "interrupted (SIGINT or SIGTERM); what was done is kept and a new run resumes"},
}

// exitCodesHelp formats exitCodes for --help.
func exitCodesHelp() string {
	var b strings.Builder
	b.WriteString("Exit codes:")
	for _, c := range exitCodes {
		fmt.Fprintf(&b, "\n  %-4d %s", c.Code, c.Meaning)
	}
	return b.String()
}

var (
	// errUsage marks errors in flags or arguments.
	errUsage = errors.New("usage")
	// errPartial marks a run that finished but skipped some inputs.
	errPartial = errors.New("some inputs failed")
	// errRefused marks a refusal of the form guard.
	errRefused = errors.New("refused")
)

// usageError wraps a message as a usage error.
func usageError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

// exitCode maps an error to the process exit code, printing it once to stderr.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	code := exitFailure
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "trawl: interrupted")
		return exitInterrupted
	case errors.Is(err, errUsage), errors.Is(err, pipeline.ErrNotRunDir), errors.Is(err, pipeline.ErrBadOptions), errors.Is(err, rundir.ErrOtherForm):
		code = exitUsage
	case errors.Is(err, errRefused) || errors.Is(err, probe.ErrRefused):
		code = exitRefused
	case errors.Is(err, errPartial), errors.Is(err, report.ErrIncomplete):
		code = exitPartial
	}
	fmt.Fprintln(stderr, message(err))
	return code
}

// message is the one line printed for err: "trawl" or the command ("trawl probe") as
// its single leading prefix, and no prefix repeated where wrapping errors stacked the
// same one ("probe: probe: …", "usage: trawl run: …").
func message(err error) string {
	parts := strings.Split(err.Error(), ": ")
	var out []string
	for i, p := range parts {
		if i > 0 && p == parts[i-1] && isPrefix(p) {
			continue // the same prefix twice in a row
		}
		if p == errUsage.Error() && i < len(parts)-1 {
			continue // the marker of usage errors says nothing to a person
		}
		out = append(out, p)
	}
	// One "trawl…" prefix, first: the command's own ("trawl probe") wins over "trawl".
	cmd := "trawl"
	kept := out[:0]
	for _, p := range out {
		if p == "trawl" || strings.HasPrefix(p, "trawl ") && isPrefix(p) {
			if len(p) > len(cmd) {
				cmd = p
			}
			continue
		}
		kept = append(kept, p)
	}
	if len(kept) == 0 {
		return cmd
	}
	return cmd + ": " + strings.Join(kept, ": ")
}

// isPrefix reports whether a piece of an error message looks like a prefix (a short
// name such as "probe", "stage schema", "trawl batch" or a path) rather than a
// sentence: it has no more than three words.
func isPrefix(p string) bool {
	return p != "" && len(strings.Fields(p)) <= 3
}
