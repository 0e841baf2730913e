package main

import (
	"time"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/progress"
)

// startProgress draws the bar poll returns (when ok) every progress.Interval on
// stderr, when stderr is a terminal and the command is not quiet. It sets g.stderr to
// the writer that logs and other lines must go through so that they stay above the
// bar. Not on a terminal it changes nothing and draws nothing. The returned function
// stops the drawing and clears the bar.
func startProgress(g *globalOptions, poll func(now time.Time) (progress.State, bool)) (stop func()) {
	if g.Quiet || !progress.IsTerminal(g.stderr) {
		return func() {}
	}
	t := progress.NewTerminal(g.stderr)
	g.stderr = t
	return progress.Start(t, progress.Interval(), poll)
}

// pipelineProgress starts the bar of the pipeline that track is given
// (startProgress): logs and stage lines must be written to g.stderr from then on, so
// create the pipeline's logger after it. stop ends the bar.
func pipelineProgress(g *globalOptions) (track func(*pipeline.Pipeline), stop func()) {
	t := &progress.Tracker{}
	return t.Track, startProgress(g, t.State)
}
