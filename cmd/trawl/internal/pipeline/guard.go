package pipeline

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// ErrGaveUp marks a re-submission that was not made because re-submissions of its field
// (or all of them) kept failing the same way.
var ErrGaveUp = errors.New("re-submission not made")

// MaxSameFailures is how many re-submissions of one field may fail the same way before
// the field is not re-submitted again; twice as many failures of one kind in a row,
// whatever the fields, stop the re-submissions altogether (the site or the browser is
// failing, not one field). A failure costs up to probe.MaxAttempts browser steps, each
// up to the step time limit: without a bound, a field the browser cannot fill (a hidden
// or numeric input given a word, a box inside a closed panel) spent the whole
// submission budget, minutes of work that could not map anything.
const MaxSameFailures = 3

// failureGuard counts failed re-submissions by field and kind, and refuses those that
// are bound to fail again. The schema stage submits one value at a time, so it needs no
// lock.
type failureGuard struct {
	base    map[string]string // the values of the first submission (the form's defaults)
	started bool
	fails   map[[2]string]int // field, kind → failures
	gaveUp  map[string]string // field → why it is not re-submitted
	runKind string            // the kind of the current run of failures in a row
	run     int
	stopped string // why no re-submission is made any more
}

// admit returns the field a submission tests ("" for the form's defaults), or an error
// wrapping ErrGaveUp when it must not be made.
func (g *failureGuard) admit(values map[string]string) (string, error) {
	if !g.started {
		g.started, g.base = true, values
		return "", nil
	}
	var fields []string
	for k, v := range values {
		if b, ok := g.base[k]; !ok || b != v {
			fields = append(fields, k)
		}
	}
	slices.Sort(fields)
	field := strings.Join(fields, "+")
	switch {
	case g.stopped != "":
		return field, fmt.Errorf("%w: %s", ErrGaveUp, g.stopped)
	case g.gaveUp[field] != "":
		return field, fmt.Errorf("%w: field %s: %s", ErrGaveUp, field, g.gaveUp[field])
	}
	return field, nil
}

// record counts the outcome of a submission of field; it returns why re-submissions of
// the field (or all of them) stop from now on, "" when they go on.
func (g *failureGuard) record(field string, err error) string {
	if err == nil {
		g.run, g.runKind = 0, ""
		return ""
	}
	kind := failureKind(err)
	if kind == g.runKind {
		g.run++
	} else {
		g.run, g.runKind = 1, kind
	}
	if g.run >= 2*MaxSameFailures {
		g.stopped = fmt.Sprintf("the last %d re-submissions all failed the same way (%s)", g.run, kind)
		return g.stopped
	}
	if g.fails == nil {
		g.fails, g.gaveUp = map[[2]string]int{}, map[string]string{}
	}
	k := [2]string{field, kind}
	g.fails[k]++
	if g.fails[k] >= MaxSameFailures && field != "" {
		g.gaveUp[field] = fmt.Sprintf("%d re-submissions failed the same way (%s); last: %v", g.fails[k], kind, err)
		return fmt.Sprintf("field %s: %s", field, g.gaveUp[field])
	}
	return ""
}

var (
	quotedRE = regexp.MustCompile(`"[^"]*"|'[^']*'|map\[[^\]]*\]|https?://\S+`)
	digitsRE = regexp.MustCompile(`[0-9]+(\.[0-9]+)?`)
)

// failureKind names the way a submission failed, for counting failures of the same
// kind: the innermost error's message without the values it quotes, the URLs and the
// numbers it holds ("the field … does not take the focus", "net::ERR_EMPTY_RESPONSE",
// "context deadline exceeded").
func failureKind(err error) string {
	for {
		inner := errors.Unwrap(err)
		if inner == nil {
			break
		}
		err = inner
	}
	msg := quotedRE.ReplaceAllString(err.Error(), "…")
	msg = digitsRE.ReplaceAllString(msg, "N")
	return strings.Join(strings.Fields(msg), " ")
}
