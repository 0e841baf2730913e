// Package progress draws the progress bar of trawl's long commands on a terminal:
// the stages of a pipeline (probes, re-submissions), the sources of a batch and the
// bytes and triples of 'trawl kb load'. The bars are rendered by
// github.com/schollz/progressbar/v3; Terminal keeps the bar on the last row of the
// terminal and writes everything else (logs, stage lines) above it. Callers draw bars
// only when stderr is a terminal and the command is not quiet (IsTerminal).
package progress
