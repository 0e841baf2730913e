package main

import (
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
)

// progressEvery is how often the progress line is redrawn on a terminal; it must stay
// under 10 s (the promise of the README). $TRAWL_PROGRESS_INTERVAL (a Go duration)
// changes it, for tests.
const progressEvery = 5 * time.Second

// statusLine is stderr on a terminal with a progress line at its bottom: the line is
// redrawn in place, and everything else written (logs, stage lines) goes above it.
type statusLine struct {
	mu    sync.Mutex
	w     io.Writer
	shown bool // a progress line is drawn on the last row
}

// Write implements io.Writer: it clears the progress line, then writes p.
func (s *statusLine) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearLocked()
	return s.w.Write(p)
}

// show draws line as the progress line.
func (s *statusLine) show(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _ = io.WriteString(s.w, "\r\x1b[K"+line)
	s.shown = true
}

// clear removes the progress line.
func (s *statusLine) clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearLocked()
}

func (s *statusLine) clearLocked() {
	if s.shown {
		_, _ = io.WriteString(s.w, "\r\x1b[K")
		s.shown = false
	}
}

// startProgress draws the line poll returns (when ok) every progressEvery on stderr,
// when stderr is a terminal and the command is not quiet. It sets g.stderr to the
// writer that logs and other lines must go through so that they do not mix with the
// progress line. Not on a terminal it changes nothing and draws nothing. The returned
// function stops the drawing and clears the line.
func startProgress(g *globalOptions, poll func(now time.Time) (string, bool)) (stop func()) {
	if g.Quiet || !isTerminal(g.stderr) {
		return func() {}
	}
	every := progressEvery
	if d, err := time.ParseDuration(os.Getenv("TRAWL_PROGRESS_INTERVAL")); err == nil && d > 0 {
		every = d
	}
	sl := &statusLine{w: g.stderr}
	g.stderr = sl
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-tick.C:
				if line, ok := poll(now); ok {
					sl.show("  " + line)
				} else {
					sl.clear()
				}
			}
		}
	})
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			wg.Wait()
			sl.clear()
		})
	}
}

// pipelineProgress starts the progress line of the pipeline that track is given
// (startProgress): logs and stage lines must be written to g.stderr from then on, so
// create the pipeline's logger after it. stop ends the line.
func pipelineProgress(g *globalOptions) (track func(*pipeline.Pipeline), stop func()) {
	var cur atomic.Pointer[pipeline.Pipeline]
	stop = startProgress(g, func(now time.Time) (string, bool) {
		p := cur.Load()
		if p == nil {
			return "", false
		}
		st, ok := p.Status()
		if !ok {
			return "", false
		}
		return st.Line(now), true
	})
	return cur.Store, stop
}
