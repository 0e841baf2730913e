package main

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/queue"
	"github.com/trawl-dev/trawl/ontology"
)

// Progress bars (github.com/schollz/progressbar/v3) are drawn on terminals only: the
// callers check isTerminal(stderr) and -q first, so CI logs and pipes get none.

// loadBar returns the Progress callback of 'trawl kb load': bytes read of all dumps
// with rate and ETA, and the triples read with their rate; finish ends the bar.
func loadBar(w io.Writer) (progress func(ontology.Progress), finish func()) {
	var bar *progressbar.ProgressBar
	start := time.Now()
	progress = func(p ontology.Progress) {
		if bar == nil {
			bar = progressbar.NewOptions64(max(p.Total, -1), progressbar.OptionSetWriter(w),
				progressbar.OptionShowBytes(true), progressbar.OptionSetPredictTime(true),
				progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionSetWidth(24),
				progressbar.OptionShowElapsedTimeOnFinish(), progressbar.OptionUseIECUnits(true))
		}
		rate := float64(p.Triples) / max(time.Since(start).Seconds(), 1e-3)
		desc := fmt.Sprintf("%-5s %d triples (%.0f/s)", p.Phase, p.Triples, rate)
		if p.BadLines > 0 {
			desc += fmt.Sprintf(", %d bad", p.BadLines)
		}
		bar.Describe(desc)
		_ = bar.Set64(p.Read)
	}
	finish = func() {
		if bar != nil {
			_ = bar.Finish()
			fmt.Fprintln(w)
		}
	}
	return progress, finish
}

// batchBar draws the sources of a batch: done and failed out of all, with the number
// running; it is cleared before each log line and drawn again after it.
type batchBar struct {
	bar *progressbar.ProgressBar
	w   io.Writer
}

func newBatchBar(w io.Writer) *batchBar { return &batchBar{w: w} }

// countStates counts the jobs done, failed and running.
func countStates(ss []pipeline.JobStatus) (done, failed, running int) {
	for _, s := range ss {
		switch s.State {
		case queue.StateDone:
			done++
		case queue.StateFailed:
			failed++
		case queue.StateRunning:
			running++
		}
	}
	return done, failed, running
}

// update redraws the bar from the jobs' states.
func (b *batchBar) update(ss []pipeline.JobStatus) {
	done, failed, running := countStates(ss)
	if b.bar == nil {
		b.bar = progressbar.NewOptions(len(ss), progressbar.OptionSetWriter(b.w), progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true), progressbar.OptionSetWidth(24), progressbar.OptionSetItsString("sources"))
	}
	b.bar.ChangeMax(len(ss))
	b.bar.Describe(fmt.Sprintf("sources: %d done, %d running, %d failed", done, running, failed))
	_ = b.bar.Set(done + failed)
}

// clear removes the bar from the line before a log line is printed.
func (b *batchBar) clear() {
	if b.bar != nil {
		_ = b.bar.Clear()
	}
}
