package progress

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/queue"
	"github.com/trawl-dev/trawl/ontology"
)

// Tracker follows the pipeline it is given and shows the bar of its stage under way.
type Tracker struct {
	cur atomic.Pointer[pipeline.Pipeline]
}

// Track makes p the pipeline followed.
func (t *Tracker) Track(p *pipeline.Pipeline) { t.cur.Store(p) }

// State is the bar of the followed pipeline at now (Stage); false before Track and
// between stages.
func (t *Tracker) State(now time.Time) (State, bool) {
	p := t.cur.Load()
	if p == nil {
		return State{}, false
	}
	st, ok := p.Status()
	if !ok {
		return State{}, false
	}
	return Stage(st, now), true
}

// Stage is the bar of a pipeline's stage: its count of probes, re-submissions or
// iterations with the rate and the time left (pipeline.Status.Line).
func Stage(st pipeline.Status, now time.Time) State {
	return State{Key: st.Stage, Text: "  " + st.Line(now), Done: int64(st.Done), Total: int64(st.Total)}
}

// Batch is the bar of a batch: sources ended of all, failures, the rate and the time
// left at that rate, and the stage each running source reached. It is false before
// any job status.
func Batch(ss []pipeline.JobStatus, started, now time.Time) (State, bool) {
	if len(ss) == 0 {
		return State{}, false
	}
	ended, failed := 0, 0
	var running []string
	for _, s := range ss {
		switch s.State {
		case queue.StateDone:
			ended++
		case queue.StateFailed:
			ended++
			failed++
		case queue.StateRunning:
			stage := s.Stage
			if stage == "" {
				stage = "started"
			} else {
				stage = "after " + stage
			}
			running = append(running, fmt.Sprintf("%s (%s)", filepath.Base(s.Dir), stage))
		}
	}
	el := now.Sub(started)
	line := fmt.Sprintf("batch      %d/%d sources", ended, len(ss))
	if failed > 0 {
		line += fmt.Sprintf(" (%d failed)", failed)
	}
	if ended > 0 {
		rate := float64(ended) / el.Minutes()
		line += fmt.Sprintf(", %.1f/min", rate)
		if left := len(ss) - ended; left > 0 {
			line += ", about " + (time.Duration(float64(left) / rate * float64(time.Minute))).Round(time.Second).String() + " left"
		}
	}
	line += ", " + el.Round(time.Second).String() + " so far"
	if len(running) > 0 {
		line += "; running: " + strings.Join(running, ", ")
	}
	return State{Key: "batch", Text: "  " + line, Done: int64(ended), Total: int64(len(ss))}, true
}

// Load follows 'trawl kb load': Update is its ontology.Progress callback, State the
// bar: the phase, triples read and their rate as text, and the bytes read of all
// dumps, whose rate and time left the bar shows. It is safe for concurrent use.
type Load struct {
	mu    sync.Mutex
	last  ontology.Progress
	start time.Time
}

// NewLoad returns a Load whose rates count from now.
func NewLoad() *Load { return &Load{start: time.Now()} }

// Update records p.
func (l *Load) Update(p ontology.Progress) {
	l.mu.Lock()
	l.last = p
	l.mu.Unlock()
}

// State is the bar at now; false before the first Update.
func (l *Load) State(now time.Time) (State, bool) {
	l.mu.Lock()
	p := l.last
	l.mu.Unlock()
	if p.Phase == "" {
		return State{}, false
	}
	secs := max(now.Sub(l.start).Seconds(), 1e-3)
	text := fmt.Sprintf("  kb load: %s, %d triples (%.0f/s)", p.Phase, p.Triples, float64(p.Triples)/secs)
	if p.BadLines > 0 {
		text += fmt.Sprintf(", %d bad lines", p.BadLines)
	}
	return State{Key: "kb load", Text: text + " ", Done: p.Read, Total: p.Total, Bytes: true}, true
}
