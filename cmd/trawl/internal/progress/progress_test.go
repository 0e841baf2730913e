package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/queue"
	"github.com/trawl-dev/trawl/ontology"
)

// TestBatch: the batch's bar counts the sources ended of all, the failures, the rate
// and the time left, and names the running sources' stages.
func TestBatch(t *testing.T) {
	start := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	ss := []pipeline.JobStatus{
		{Dir: "runs/a", State: queue.StateDone},
		{Dir: "runs/b", State: queue.StateFailed},
		{Dir: "runs/c", State: queue.StateRunning, Stage: "probe"},
		{Dir: "runs/d", State: queue.StateQueued},
	}
	s, ok := Batch(ss, start, start.Add(4*time.Minute))
	want := "  batch      2/4 sources (1 failed), 0.5/min, about 4m0s left, 4m0s so far; running: c (after probe)"
	if !ok || s.Text != want || s.Done != 2 || s.Total != 4 {
		t.Errorf("Batch = %+v, want text %q, 2 of 4", s, want)
	}
	if _, ok := Batch(nil, start, start); ok {
		t.Error("a bar before any job status")
	}
}

// TestTerminal: the bar is drawn by the library on the last row, logs are written
// above it, the bar comes back after each log line, and Clear removes it.
func TestTerminal(t *testing.T) {
	var buf bytes.Buffer
	term := NewTerminal(&buf)
	term.Show(State{Key: "probe", Text: "  probe 3/6 probes", Done: 3, Total: 6})
	if got := buf.String(); !strings.HasPrefix(got, "\r\x1b[K  probe 3/6 probes  50% |") {
		t.Fatalf("first bar: %q", got)
	}
	buf.Reset()
	if _, err := term.Write([]byte("a log line\n")); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); !strings.HasPrefix(got, "\r\x1b[Ka log line\n\r\x1b[K  probe 3/6 probes  50% |") {
		t.Errorf("a log line with the bar shown: %q", got)
	}
	buf.Reset()
	term.Show(State{Key: "probe", Text: "  probe 6/6 probes", Done: 6, Total: 6})
	term.Show(State{Key: "probe", Text: "  probe 6/6 probes, 2s so far", Done: 6, Total: 6})
	if got := buf.String(); !strings.Contains(got, "6/6 probes, 2s so far 100% |") {
		t.Errorf("a full bar is not redrawn with its new text: %q", got)
	}
	buf.Reset()
	term.Show(State{Key: "schema", Text: "  schema running for 1s"})
	if got := buf.String(); !strings.HasPrefix(got, "\r\x1b[K|   schema running for 1s") || strings.Contains(got, "%") {
		t.Errorf("a stage without a total: %q", got)
	}
	buf.Reset()
	term.Clear()
	term.Clear()
	if _, err := term.Write([]byte("after\n")); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "\r\x1b[Kafter\n" {
		t.Errorf("after Clear: %q", got)
	}
}

// TestLoad: the bar of 'kb load' has the phase, the triples with their rate and the
// bytes read of all as its fill, with the library's byte rate and time left.
func TestLoad(t *testing.T) {
	l := NewLoad()
	if _, ok := l.State(time.Now()); ok {
		t.Error("a bar before any progress")
	}
	l.Update(ontology.Progress{Phase: "parse", Read: 1 << 20, Total: 4 << 20, Triples: 5000, BadLines: 2})
	s, ok := l.State(l.start.Add(2 * time.Second))
	if !ok || s.Text != "  kb load: parse, 5000 triples (2500/s), 2 bad lines " || !s.Bytes || s.Done != 1<<20 || s.Total != 4<<20 {
		t.Fatalf("State = %+v", s)
	}
	var buf bytes.Buffer
	NewTerminal(&buf).Show(s)
	if got := buf.String(); !strings.Contains(got, "25% |") || !strings.Contains(got, "1.0/4.0 MiB") {
		t.Errorf("the kb load bar shows no bytes read of all: %q", got)
	}
}

// TestStart: Start redraws the bar at every interval and clears it when stopped.
func TestStart(t *testing.T) {
	var buf syncBuffer
	term := NewTerminal(&buf)
	n := 0
	stop := Start(term, time.Millisecond, func(now time.Time) (State, bool) {
		n++
		return State{Key: "x", Text: "  x " + strings.Repeat("+", n)}, true
	})
	time.Sleep(20 * time.Millisecond)
	stop()
	stop()
	got := buf.String()
	if strings.Count(got, "   x +") < 2 || !strings.HasSuffix(got, "\r\x1b[K") {
		t.Errorf("Start drew %q", got)
	}
}

// TestTracker: no bar before a pipeline is tracked, nor while it runs no stage.
func TestTracker(t *testing.T) {
	var tr Tracker
	if _, ok := tr.State(time.Now()); ok {
		t.Error("a bar before Track")
	}
	p := pipeline.New(pipeline.DefaultOptions(), nil)
	defer p.Close()
	tr.Track(p)
	if s, ok := tr.State(time.Now()); ok {
		t.Errorf("a bar of a pipeline that runs no stage: %+v", s)
	}
}

// TestStage: a stage's bar has the stage's line as its text and its count as its fill.
func TestStage(t *testing.T) {
	start := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	st := pipeline.Status{Stage: "probe", Unit: "probes", Done: 3, Total: 6, Started: start}
	s := Stage(st, start.Add(3*time.Second))
	if s.Key != "probe" || s.Done != 3 || s.Total != 6 || s.Text != "  "+st.Line(start.Add(3*time.Second)) {
		t.Errorf("Stage = %+v", s)
	}
}
