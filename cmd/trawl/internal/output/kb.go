package output

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/ontology"
)

// LoadSummary is the JSON form of the report of 'trawl kb load'.
type LoadSummary struct {
	KB            string                  `json:"kb"`
	Sources       []ontology.SourceReport `json:"sources"`
	Parsed        int64                   `json:"parsed"`
	BadLines      int64                   `json:"bad_lines"`
	Facts         int64                   `json:"facts"`
	Nodes         int64                   `json:"nodes"`
	Literals      int64                   `json:"literals"`
	Entities      int64                   `json:"entities"`
	Classes       int64                   `json:"classes"`
	Relations     int                     `json:"relations"`
	SpillRuns     int                     `json:"spill_runs"`
	Seconds       float64                 `json:"seconds"`
	ParseSeconds  float64                 `json:"parse_seconds"`
	IndexSeconds  float64                 `json:"index_seconds"`
	CPUSeconds    float64                 `json:"cpu_seconds"`
	TriplesPerSec float64                 `json:"triples_per_second"`
	PeakRSSMiB    float64                 `json:"peak_rss_mib"`
	Errors        []string                `json:"errors,omitempty"`
	Error         string                  `json:"error,omitempty"`
}

// NewLoadSummary is the summary of a load into kb that took wall (cpu of CPU time,
// peakRSS bytes at most) and reported rep.
func NewLoadSummary(kb string, rep *ontology.LoadReport, wall, cpu time.Duration, peakRSS int64) LoadSummary {
	sum := LoadSummary{KB: kb, Sources: rep.Sources, Parsed: rep.Parsed, BadLines: rep.BadLines,
		Facts: rep.Facts, Nodes: rep.Nodes, Literals: rep.Literals, Entities: rep.Entities,
		Classes: rep.Classes, Relations: rep.Relations, SpillRuns: rep.SpillRuns,
		Seconds: wall.Seconds(), ParseSeconds: rep.ParseTime.Seconds(), IndexSeconds: rep.IndexTime.Seconds(),
		CPUSeconds: cpu.Seconds(), PeakRSSMiB: float64(peakRSS) / (1 << 20), Errors: rep.Errors}
	if wall > 0 {
		sum.TriplesPerSec = float64(rep.Parsed) / wall.Seconds()
	}
	return sum
}

// Print writes the summary for a person; files is the number of dumps read.
func (s LoadSummary) Print(w io.Writer, files int) {
	fmt.Fprintf(w, "loaded %s: %d triples read from %d files, %d distinct facts\n", s.KB, s.Parsed, files, s.Facts)
	fmt.Fprintf(w, "  %d nodes (%d literals, %d entities, %d classes), %d relations\n", s.Nodes, s.Literals, s.Entities, s.Classes, s.Relations)
	fmt.Fprintf(w, "  %.1fs (parse %.1fs, index %.1fs), %.0f triples/s, CPU %.1fs, peak RSS %.0f MiB\n",
		s.Seconds, s.ParseSeconds, s.IndexSeconds, s.TriplesPerSec, s.CPUSeconds, s.PeakRSSMiB)
}

// relationJSON is a relation in StatsJSON.
type relationJSON struct {
	IRI                  string  `json:"iri"`
	Facts                int64   `json:"facts"`
	Subjects             int64   `json:"subjects"`
	Objects              int64   `json:"objects"`
	Functionality        float64 `json:"functionality"`
	InverseFunctionality float64 `json:"inverse_functionality"`
	Taxonomy             bool    `json:"taxonomy,omitempty"`
}

// StatsJSON is the --json output of 'trawl kb stats'.
type StatsJSON struct {
	KB        string                  `json:"kb"`
	Layout    int                     `json:"layout"`
	Created   time.Time               `json:"created"`
	Sources   []ontology.SourceReport `json:"sources"`
	Facts     int64                   `json:"facts"`
	Nodes     int64                   `json:"nodes"`
	Literals  int64                   `json:"literals"`
	Entities  int64                   `json:"entities"`
	Classes   int64                   `json:"classes"`
	BadLines  int64                   `json:"bad_lines"`
	NumRels   int                     `json:"relations"`
	Relations []relationJSON          `json:"top_relations"`
}

// Stats writes the statistics s of a KB with the relations rels (its top ones), as
// JSON or as a table.
func Stats(w io.Writer, s ontology.Stats, rels []ontology.RelationStats, asJSON bool) error {
	if asJSON {
		out := StatsJSON{KB: s.Dir, Layout: s.Layout, Created: s.Created, Sources: s.Sources, Facts: s.Facts,
			Nodes: s.Nodes, Literals: s.Literals, Entities: s.Entities, Classes: s.Classes, BadLines: s.BadLines,
			NumRels: len(s.Relations)}
		for _, r := range rels {
			out.Relations = append(out.Relations, relationJSON{IRI: r.IRI, Facts: r.Facts, Subjects: r.Subjects,
				Objects: r.Objects, Functionality: r.Functionality, InverseFunctionality: r.InverseFunctionality, Taxonomy: r.Taxonomy})
		}
		return JSON(w, out)
	}
	fmt.Fprintf(w, "KB %s (layout %d, loaded %s)\n", s.Dir, s.Layout, s.Created.Format(time.RFC3339))
	for _, src := range s.Sources {
		fmt.Fprintf(w, "  source %s (%s): %d triples, %d bad lines\n", src.Name, src.Format, src.Triples, src.BadLines)
	}
	fmt.Fprintf(w, "%d facts, %d nodes (%d literals), %d entities, %d classes, %d relations\n\n",
		s.Facts, s.Nodes, s.Literals, s.Entities, s.Classes, len(s.Relations))
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "facts\tsubjects\tobjects\tfun\tfun⁻¹\t\trelation")
	for _, r := range rels {
		name := r.IRI
		if r.Taxonomy {
			name += " (taxonomy)"
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%.3f\t%.3f\t\t%s\n", r.Facts, r.Subjects, r.Objects, r.Functionality, r.InverseFunctionality, name)
	}
	return tw.Flush()
}

// Lookup writes the matches of text: JSON lines, or a table (of literals or of
// entities); no match is said on stderr.
func Lookup(w, stderr io.Writer, text string, rows []pipeline.LookupRow, literals, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		for _, r := range rows {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}
	if len(rows) == 0 {
		fmt.Fprintf(stderr, "no match for %q\n", text)
		return nil
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	if literals {
		fmt.Fprintln(tw, "score\tmatch\tliteral")
		for _, r := range rows {
			fmt.Fprintf(tw, "%.3f\t%s\t%s\n", r.Score, matchKind(r.Exact), r.Literal)
		}
		return tw.Flush()
	}
	fmt.Fprintln(tw, "score\tmatch\tlabel\tentity\tvia")
	for _, r := range rows {
		fmt.Fprintf(tw, "%.3f\t%s\t%s\t%s\t%s %q\n", r.Score, matchKind(r.Exact), r.Label, r.Entity, graph.LocalName(r.Relation), r.Literal)
	}
	return tw.Flush()
}

func matchKind(exact bool) string {
	if exact {
		return "exact"
	}
	return "approx"
}

// JSON writes v to w as indented JSON without HTML escaping (URLs stay readable).
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
