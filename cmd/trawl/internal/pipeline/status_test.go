package pipeline

import (
	"testing"
	"time"
)

func TestStatusLine(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		s    Status
		at   time.Duration
		want string
	}{
		{Status{Stage: "extract", Started: t0}, 12 * time.Second, "extract    running for 12s"},
		{Status{Stage: "probe", Unit: "probes", Total: 40, Started: t0}, 7 * time.Second, "probe      0/40 probes, running for 7s"},
		{Status{Stage: "probe", Unit: "probes", Done: 10, Failed: 1, Total: 40, Started: t0}, 20 * time.Second,
			"probe      10/40 probes (1 failed), 30.0/min, at most 1m0s left, 20s so far"},
		{Status{Stage: "align", Unit: "iterations", Done: 3, Started: t0}, 2 * time.Second, "align      3 iterations, 1.5/s, 2s so far"},
	} {
		if got := tc.s.Line(t0.Add(tc.at)); got != tc.want {
			t.Errorf("Line = %q, want %q", got, tc.want)
		}
	}
}
