package pipeline

import (
	"fmt"
	"sync"
	"time"
)

// Status is what the pipeline is doing now, for a progress line: the stage under way
// and, for the stages that count their work, how much of it is done.
type Status struct {
	// Stage is the stage under way ("" between stages).
	Stage string
	// Unit names what the stage counts ("probes", "re-submissions", "iterations"), ""
	// when it counts nothing; Done is how many are done, Failed how many of them
	// failed, and Total the most there can be (0: unknown).
	Unit         string
	Done, Failed int
	Total        int
	// Started is when the stage began.
	Started time.Time
}

// Line formats the status for a person at now: the stage, the count, the rate and an
// estimate of the time left when the total is known.
func (s Status) Line(now time.Time) string {
	el := now.Sub(s.Started)
	if s.Unit == "" || s.Done == 0 {
		if s.Unit != "" && s.Total > 0 {
			return fmt.Sprintf("%-10s 0/%d %s, running for %s", s.Stage, s.Total, s.Unit, roundDur(el))
		}
		return fmt.Sprintf("%-10s running for %s", s.Stage, roundDur(el))
	}
	rate := float64(s.Done) / el.Seconds()
	line := fmt.Sprintf("%-10s %d", s.Stage, s.Done)
	if s.Total > 0 {
		line += fmt.Sprintf("/%d", s.Total)
	}
	line += " " + s.Unit
	if s.Failed > 0 {
		line += fmt.Sprintf(" (%d failed)", s.Failed)
	}
	switch {
	case rate >= 1:
		line += fmt.Sprintf(", %.1f/s", rate)
	default:
		line += fmt.Sprintf(", %.1f/min", rate*60)
	}
	if s.Total > s.Done && rate > 0 {
		left := time.Duration(float64(s.Total-s.Done) / rate * float64(time.Second))
		line += ", at most " + roundDur(left) + " left"
	}
	return line + ", " + roundDur(el) + " so far"
}

// roundDur rounds a duration for a progress line.
func roundDur(d time.Duration) string {
	if d < time.Minute {
		return d.Round(time.Second).String()
	}
	return d.Round(10 * time.Second).String()
}

// meter keeps the Status of a pipeline; it is safe for concurrent use.
type meter struct {
	mu sync.Mutex
	s  Status
}

// begin starts a stage.
func (m *meter) begin(stage string) {
	m.mu.Lock()
	m.s = Status{Stage: stage, Started: time.Now()}
	m.mu.Unlock()
}

// end ends the stage under way.
func (m *meter) end() {
	m.mu.Lock()
	m.s = Status{}
	m.mu.Unlock()
}

// counts says what the stage under way counts and how many there can be at most.
func (m *meter) counts(unit string, total int) {
	m.mu.Lock()
	m.s.Unit, m.s.Total = unit, total
	m.mu.Unlock()
}

// add counts one unit of work done, failed or not.
func (m *meter) add(failed bool) {
	m.mu.Lock()
	m.s.Done++
	if failed {
		m.s.Failed++
	}
	m.mu.Unlock()
}

// status returns the current status; ok is false between stages.
func (m *meter) status() (Status, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.s, m.s.Stage != ""
}

// Status returns what the pipeline is doing now; ok is false between stages. It is
// safe to call from another goroutine while the pipeline runs.
func (p *Pipeline) Status() (Status, bool) { return p.meter.status() }
