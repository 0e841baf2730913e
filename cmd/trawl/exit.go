package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/report"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
)

// Exit codes are part of the CLI contract; the README lists them.
const (
	exitOK          = 0
	exitFailure     = 1   // any other error
	exitUsage       = 2   // bad flags or arguments
	exitPartial     = 3   // finished, but some inputs failed (see stderr)
	exitRefused     = 4   // the form guard refused to submit a form that is not a search form
	exitInterrupted = 130 // SIGINT or SIGTERM
)

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
	fmt.Fprintln(stderr, "trawl:", err)
	return code
}
