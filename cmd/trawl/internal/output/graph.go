package output

import (
	"fmt"
	"io"

	"github.com/trawl-dev/trawl/schema"
)

// GraphSummary is the summary of 'trawl graph' (its --json output).
type GraphSummary struct {
	Graph          string `json:"graph"`
	Source         string `json:"source"`
	Entities       int    `json:"entities"`
	RecordTriples  int    `json:"record_triples"`
	Triples        int    `json:"triples"`
	SkippedRecords int    `json:"skipped_records"`
	SkippedValues  int    `json:"skipped_values"`
}

// NewGraphSummary sums up the graph l written to path.
func NewGraphSummary(path string, l *schema.Labeled) GraphSummary {
	return GraphSummary{path, l.NS.SourceIRI(), l.Entities, len(l.Records), len(l.Records) + len(l.Schema) + len(l.Provenance), l.SkippedRecords, l.SkippedValues}
}

// Print writes the summary for a person.
func (s GraphSummary) Print(w io.Writer) {
	fmt.Fprintf(w, "%s: %d triples, %d entities (%s)\n", s.Graph, s.Triples, s.Entities, s.Source)
	if s.SkippedRecords+s.SkippedValues > 0 {
		fmt.Fprintf(w, "skipped %d records without text and %d values that could not be written (see the log with -v)\n", s.SkippedRecords, s.SkippedValues)
	}
}
