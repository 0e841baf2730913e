package probe

import (
	"strings"
	"testing"
	"time"
)

// TestLimits: the page-script, no-effect and settle limits derive from the step
// timeout and grow with the measured answer time of the browser, within bounds.
func TestLimits(t *testing.T) {
	l := newLimits(20*time.Second, 5*time.Second)
	if got := l.script(); got != 20*time.Second/6 {
		t.Errorf("script limit for a 20s step: %v, want 3.33s", got)
	}
	if got := l.settle(); got != 5*time.Second {
		t.Errorf("settle limit: %v, want 5s", got)
	}
	if !strings.Contains(l.describe(), "a sixth of the step timeout 20s") || strings.Contains(l.describe(), "busy") {
		t.Errorf("describe on an idle machine: %q", l.describe())
	}
	for range 20 {
		l.observe(200 * time.Millisecond) // a busy machine: 0.2 s per small evaluation
	}
	if got := l.script(); got < 7*time.Second || got > 10*time.Second {
		t.Errorf("script limit after 0.2s answers: %v, want about 8s (40 × 0.2s)", got)
	}
	if !strings.Contains(l.describe(), "the machine is busy") {
		t.Errorf("describe on a busy machine: %q", l.describe())
	}
	for range 20 {
		l.observe(5 * time.Second)
	}
	if got := l.script(); got != 10*time.Second {
		t.Errorf("script limit is not bounded by half a step: %v", got)
	}
	if got := l.settle(); got != 15*time.Second {
		t.Errorf("settle limit is not bounded by three quarters of a step: %v", got)
	}

	short := newLimits(3*time.Second, 5*time.Second)
	if got := short.script(); got != time.Second {
		t.Errorf("script limit for a 3s step: %v, want the 1s floor", got)
	}
	if got := short.settle(); got != 2250*time.Millisecond {
		t.Errorf("settle limit for a 3s step: %v, want 2.25s", got)
	}
	o := DefaultOptions()
	o.StepTimeout = 3 * time.Second // --timeout 3s alone, SettleTimeout left at 5s
	if err := o.Validate(); err != nil {
		t.Errorf("a 3s step with the default settle timeout: %v", err)
	}
}
