package output

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/queue"
)

// BatchTable writes the final status of every job of a batch as a table.
func BatchTable(w io.Writer, status []pipeline.JobStatus) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LINE\tSTATE\tPROBES\tRECORDS\tLINKS\tRELATIONS\tSECONDS\tDIR\tERROR")
	for _, s := range status {
		probes, rec, links, rels := "-", "-", "-", "-"
		if sum := s.Summary; sum != nil {
			probes = strconv.Itoa(sum.Probes)
			if sum.Failed > 0 {
				probes += fmt.Sprintf(" (%d failed)", sum.Failed)
			}
			rec, links, rels = strconv.Itoa(sum.Records), strconv.Itoa(sum.Links), strconv.Itoa(len(sum.Relations))
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%.1f\t%s\t%s\n", s.Line, s.State, probes, rec, links, rels, s.Seconds, s.Dir, s.Error)
	}
	_ = tw.Flush()
}

// BatchChanges prints one line per job of a batch whose state changed since the last
// call with the same shown map.
func BatchChanges(w io.Writer, ss []pipeline.JobStatus, shown map[string]string) {
	done, failed := 0, 0
	for _, s := range ss {
		switch s.State {
		case queue.StateDone:
			done++
		case queue.StateFailed:
			failed++
		}
	}
	for _, s := range ss {
		key := s.State + "/" + s.Worker + "/" + fmt.Sprint(s.Attempts)
		if shown[s.Dir] == key {
			continue
		}
		shown[s.Dir] = key
		dir := s.Dir
		switch s.State {
		case queue.StateRunning:
			fmt.Fprintf(w, "[%s] running on %s (attempt %d)\n", dir, s.Worker, s.Attempts)
		case queue.StateDone:
			var sum pipeline.Summary
			if s.Summary != nil {
				sum = *s.Summary
			}
			fmt.Fprintf(w, "[%s] done: %d records, %d links (%d done, %d failed, %d total)\n", dir, sum.Records, sum.Links, done, failed, len(ss))
		case queue.StateFailed:
			fmt.Fprintf(w, "[%s] failed: %s (%d done, %d failed, %d total)\n", dir, s.Error, done, failed, len(ss))
		case queue.StateQueued:
			if s.Error != "" {
				fmt.Fprintf(w, "[%s] queued again: %s\n", dir, s.Error)
			}
		}
	}
}
