package output

import (
	"fmt"
	"io"
	"time"

	"github.com/trawl-dev/trawl/align"
)

// AlignSummary is the summary of 'trawl align' (its --json output).
type AlignSummary struct {
	KB1        string                 `json:"kb1"`
	KB2        string                 `json:"kb2"`
	Out        string                 `json:"out"`
	Instances  int                    `json:"instances"`
	Links      int                    `json:"links"`
	Relations  int                    `json:"relations"`
	Classes    int                    `json:"classes"`
	Iterations []align.IterationStats `json:"iterations"`
	Stats      align.RunStats         `json:"stats"`
	Scores     []align.Score          `json:"scores,omitempty"`
	Problems   []string               `json:"gold_problems,omitempty"`
	Warnings   []string               `json:"warnings,omitempty"`
	Seconds    float64                `json:"seconds"`
}

// NewAlignSummary sums up res, an alignment of kb1 and kb2 written to out that took
// elapsed, with its links of confidence threshold or more and its scores against gold
// (when not nil).
func NewAlignSummary(kb1, kb2, out string, res *align.Result, gold *align.Gold, threshold float64, elapsed time.Duration) AlignSummary {
	sum := AlignSummary{KB1: kb1, KB2: kb2, Out: out, Instances: len(res.Instances), Relations: len(res.Relations),
		Classes: len(res.Classes), Iterations: res.Iterations, Stats: res.Stats, Warnings: res.Warnings,
		Seconds: elapsed.Seconds()}
	for _, m := range res.Instances {
		if m.Confidence >= threshold {
			sum.Links++
		}
	}
	if gold != nil {
		sum.Scores = align.Evaluate(res, gold)
		sum.Problems = gold.Problems
	}
	return sum
}

// Warn writes the aligner's warnings and the gold entries the KBs do not have (the
// first ten).
func (s AlignSummary) Warn(stderr io.Writer) {
	for _, w := range s.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	if len(s.Problems) > 0 {
		fmt.Fprintf(stderr, "warning: %d gold entries name something the KBs do not have (they count against recall):\n", len(s.Problems))
		for i, p := range s.Problems {
			if i == 10 {
				fmt.Fprintf(stderr, "  … and %d more\n", len(s.Problems)-10)
				break
			}
			fmt.Fprintln(stderr, " ", p)
		}
	}
}

// Print writes the summary for a person, with the scores when scored against a gold.
func (s AlignSummary) Print(w io.Writer, threshold float64, scored bool) error {
	fmt.Fprintf(w, "%d instance pairs (%d links ≥ %.2f), %d relation and %d class subsumptions in %d iterations, %.2fs; written to %s\n",
		s.Instances, s.Links, threshold, s.Relations, s.Classes, len(s.Iterations), s.Seconds, s.Out)
	if scored {
		return align.WriteScores(w, s.Scores)
	}
	return nil
}

// AlignIteration returns the Progress callback of the aligner that writes a line per
// iteration to w.
func AlignIteration(w io.Writer) func(align.IterationStats) {
	return func(st align.IterationStats) {
		fmt.Fprintf(w, "iteration %d: %d matched (+%d new, %d changed, %d lost), %d relation pairs (%d changed), max Δ %.4f, %v\n",
			st.Iteration, st.Matched, st.New, st.Changed, st.Lost, st.RelationPairs, st.RelationChanges, st.MaxDelta, st.Elapsed.Round(time.Millisecond))
	}
}
