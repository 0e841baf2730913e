package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/ontology"
)

func newKBCommand(g *globalOptions) *cobra.Command {
	kb := &cobra.Command{
		Use:   "kb",
		Short: "Load and inspect reference knowledge bases (YAGO in Badger)",
		Long: `Load RDF dumps into a Badger knowledge base and inspect it.

Without --kb, 'kb stats' and 'kb lookup' use the built-in demo KB: a few thousand
real facts about books, authors, publishers, films and countries in YAGO 4.5
vocabulary.`,
	}
	kb.AddCommand(newKBLoadCommand(g), newKBStatsCommand(g), newKBLookupCommand(g))
	return kb
}

type kbLoadOptions struct {
	KB           string
	Format       string
	MaxErrors    int
	Replace      bool
	SortMemoryMB int64
	Workers      int
	IDSalt       uint64
	NoLabels     bool
	JSON         bool
}

func newKBLoadCommand(g *globalOptions) *cobra.Command {
	var o kbLoadOptions
	def := ontology.DefaultLoadOptions()
	cmd := &cobra.Command{
		Use:   "load DUMP... --kb DIR",
		Short: "Load RDF dumps (N-Triples, Turtle, YAGO3 TSV, RDF/XML, .gz) into a Badger KB",
		Long: `Load RDF dumps into a new Badger KB in DIR: N-Triples, Turtle (including YAGO 4.5's
one-statement-per-line export), YAGO3 TSV (factId, subject, predicate, object) and
bare YAGO3-10 TSV (subject, relation, object) and RDF/XML (.rdf, .owl: ontologies
and OAEI tasks), each plain or gzipped. The format is detected from the file name and
the first lines.

Terms are dictionary-encoded; facts are indexed by node in both directions and per
relation; rdf:type and rdfs:subClassOf form the taxonomy; every relation gets its
fact count and PARIS functionalities; literals get an exact, an approximate
(MinHash) and a date index.

A malformed line is reported on stderr with file:line and skipped; past --max-errors
the load stops. A load that stops or is killed leaves a directory that 'trawl kb'
refuses to open until a new load finishes. The exit code is 3 when lines were skipped.`,
		Example: example("trawl kb load yago-facts.ttl.gz yago-labels.ttl.gz --kb /data/yago",
			"trawl kb load test.txt valid.txt literals/*.txt --kb kb-yago3-10 --json"),
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.KB == "" {
				return usageError("kb load: --kb DIR is required (the directory of the new KB)")
			}
			return runKBLoad(cmd.Context(), *g, o, args, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.KB, "kb", "", "directory of the KB to create")
	f.StringVar(&o.Format, "format", "auto", "input format: auto, ntriples, turtle, tsv or rdfxml (.rdf, .owl)")
	f.IntVar(&o.MaxErrors, "max-errors", def.MaxErrors, "bad lines to skip before the load stops")
	f.BoolVar(&o.Replace, "replace", false, "replace the KB if DIR already holds one")
	f.Int64Var(&o.SortMemoryMB, "sort-memory", def.SortMemoryMB, "MiB of memory for sorting before spilling to disk")
	f.IntVar(&o.Workers, "workers", def.Workers, "parsing goroutines")
	f.Uint64Var(&o.IDSalt, "id-salt", 0, "seed of the node identifier hash (change only after an identifier collision)")
	f.BoolVar(&o.NoLabels, "no-derived-labels", false, "do not derive rdfs:label from the names of bare YAGO3-10 TSV files")
	f.BoolVar(&o.JSON, "json", false, "print the load report as JSON")
	return cmd
}

// loadSummary is the JSON form of a load report.
type loadSummary struct {
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

func runKBLoad(ctx context.Context, g globalOptions, o kbLoadOptions, dumps []string, stdout, stderr io.Writer) error {
	format, err := ontology.ParseFormat(o.Format)
	if err != nil {
		return usageError("kb load: %v", err)
	}
	opts := ontology.DefaultLoadOptions()
	g.stderr = stderr
	opts.MaxErrors, opts.Replace, opts.SortMemoryMB, opts.Workers = o.MaxErrors, o.Replace, o.SortMemoryMB, o.Workers
	opts.IDSalt, opts.DeriveLabels = o.IDSalt, !o.NoLabels
	if err := opts.Validate(); err != nil {
		return usageError("kb load: %v", err)
	}
	var srcs []ontology.Source
	for _, d := range dumps {
		st, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("kb load: %w", err)
		}
		if st.IsDir() {
			return usageError("kb load: %s is a directory; give the dump files", d)
		}
		s := ontology.FileSource(d)
		s.Format = format
		srcs = append(srcs, s)
	}
	finish := func() {}
	if !o.JSON {
		opts.Progress, finish = loadProgress(&g)
	}
	opts.Logger = g.logger() // after the progress line: its logs go above the line
	cpu0 := cpuTime()
	start := time.Now()
	rep, err := ontology.Load(ctx, o.KB, srcs, opts)
	finish()
	if rep == nil {
		rep = &ontology.LoadReport{}
	}
	wall := time.Since(start)
	sum := loadSummary{KB: o.KB, Sources: rep.Sources, Parsed: rep.Parsed, BadLines: rep.BadLines,
		Facts: rep.Facts, Nodes: rep.Nodes, Literals: rep.Literals, Entities: rep.Entities,
		Classes: rep.Classes, Relations: rep.Relations, SpillRuns: rep.SpillRuns,
		Seconds: wall.Seconds(), ParseSeconds: rep.ParseTime.Seconds(), IndexSeconds: rep.IndexTime.Seconds(),
		CPUSeconds: (cpuTime() - cpu0).Seconds(), PeakRSSMiB: float64(peakRSS()) / (1 << 20), Errors: rep.Errors}
	if wall > 0 {
		sum.TriplesPerSec = float64(rep.Parsed) / wall.Seconds()
	}
	if err != nil {
		sum.Error = err.Error()
		if o.JSON {
			_ = writeJSON(stdout, sum) // the load error below is what matters
		}
		return fmt.Errorf("kb load: %w", err)
	}
	if o.JSON {
		if err := writeJSON(stdout, sum); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "loaded %s: %d triples read from %d files, %d distinct facts\n", o.KB, sum.Parsed, len(dumps), sum.Facts)
		fmt.Fprintf(stdout, "  %d nodes (%d literals, %d entities, %d classes), %d relations\n", sum.Nodes, sum.Literals, sum.Entities, sum.Classes, sum.Relations)
		fmt.Fprintf(stdout, "  %.1fs (parse %.1fs, index %.1fs), %.0f triples/s, CPU %.1fs, peak RSS %.0f MiB\n",
			sum.Seconds, sum.ParseSeconds, sum.IndexSeconds, sum.TriplesPerSec, sum.CPUSeconds, sum.PeakRSSMiB)
	}
	if rep.BadLines > 0 {
		return fmt.Errorf("kb load: %w: %d bad lines skipped (reported above)", errPartial, rep.BadLines)
	}
	return nil
}

type kbStatsOptions struct {
	KB   string
	Top  int
	JSON bool
}

func newKBStatsCommand(g *globalOptions) *cobra.Command {
	var o kbStatsOptions
	cmd := &cobra.Command{
		Use:     "stats [--kb DIR]",
		Short:   "Print the counts and top relations of a KB, with their functionalities",
		Example: example("trawl kb stats", "trawl kb stats --kb /data/yago --top 50 --json"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runKBStats(cmd.Context(), *g, o, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVar(&o.KB, "kb", "", "KB directory (default: the built-in demo KB)")
	cmd.Flags().IntVar(&o.Top, "top", 20, "number of relations to list (0: all)")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print JSON")
	return cmd
}

// openKB opens the KB in dir, or the demo KB when dir is "".
func openKB(ctx context.Context, g globalOptions, dir string, stderr io.Writer) (*ontology.Store, error) {
	opts := ontology.DefaultOptions()
	g.stderr = stderr
	opts.Logger = g.logger()
	if dir == "" {
		return ontology.OpenDemo(ctx, opts)
	}
	return ontology.Open(dir, opts)
}

type relationJSON struct {
	IRI                  string  `json:"iri"`
	Facts                int64   `json:"facts"`
	Subjects             int64   `json:"subjects"`
	Objects              int64   `json:"objects"`
	Functionality        float64 `json:"functionality"`
	InverseFunctionality float64 `json:"inverse_functionality"`
	Taxonomy             bool    `json:"taxonomy,omitempty"`
}

type statsJSON struct {
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

func runKBStats(ctx context.Context, g globalOptions, o kbStatsOptions, stdout, stderr io.Writer) error {
	if o.Top < 0 {
		return usageError("kb stats: --top must be ≥ 0")
	}
	st, err := openKB(ctx, g, o.KB, stderr)
	if err != nil {
		return fmt.Errorf("kb stats: %w", err)
	}
	defer func() { _ = st.Close() }()
	s := st.Stats()
	rels := s.Relations
	if o.Top > 0 && len(rels) > o.Top {
		rels = rels[:o.Top]
	}
	if o.JSON {
		out := statsJSON{KB: s.Dir, Layout: s.Layout, Created: s.Created, Sources: s.Sources, Facts: s.Facts,
			Nodes: s.Nodes, Literals: s.Literals, Entities: s.Entities, Classes: s.Classes, BadLines: s.BadLines,
			NumRels: len(s.Relations)}
		for _, r := range rels {
			out.Relations = append(out.Relations, relationJSON{IRI: r.IRI, Facts: r.Facts, Subjects: r.Subjects,
				Objects: r.Objects, Functionality: r.Functionality, InverseFunctionality: r.InverseFunctionality, Taxonomy: r.Taxonomy})
		}
		return writeJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "KB %s (layout %d, loaded %s)\n", s.Dir, s.Layout, s.Created.Format(time.RFC3339))
	for _, src := range s.Sources {
		fmt.Fprintf(stdout, "  source %s (%s): %d triples, %d bad lines\n", src.Name, src.Format, src.Triples, src.BadLines)
	}
	fmt.Fprintf(stdout, "%d facts, %d nodes (%d literals), %d entities, %d classes, %d relations\n\n",
		s.Facts, s.Nodes, s.Literals, s.Entities, s.Classes, len(s.Relations))
	tw := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', tabwriter.AlignRight)
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

type kbLookupOptions struct {
	KB       string
	Limit    int
	Any      bool
	Literals bool
	JSON     bool
}

func newKBLookupCommand(g *globalOptions) *cobra.Command {
	var o kbLookupOptions
	cmd := &cobra.Command{
		Use:   "lookup TEXT [--kb DIR]",
		Short: "Find the entities whose names match a text",
		Long: `Find the entities whose name literals (rdfs:label, skos:prefLabel, schema:name,
schema:alternateName …) match TEXT after normalisation (case, accents, punctuation,
stop words and bracketed parts are ignored), exactly or approximately (MinHash
candidates scored by 2-gram Dice). Dates match by inclusion: "1838" finds
"1838-05-12" and YAGO's "1838-##-##".`,
		Example: example("trawl kb lookup 'Hamlet (French Edition)'", "trawl kb lookup 'fyodor dostoyevsky' --json",
			"trawl kb lookup 1926 --any", "trawl kb lookup 'great expectation' --literals --kb /data/yago"),
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runKBLookup(cmd.Context(), *g, o, args[0], cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.KB, "kb", "", "KB directory (default: the built-in demo KB)")
	f.IntVarP(&o.Limit, "limit", "k", 10, "maximum number of results")
	f.BoolVar(&o.Any, "any", false, "also follow relations other than names (e.g. a birth date)")
	f.BoolVar(&o.Literals, "literals", false, "list the matching literals instead of entities")
	f.BoolVar(&o.JSON, "json", false, "print JSON lines")
	return cmd
}

type lookupJSON struct {
	Entity   string  `json:"entity,omitempty"`
	Label    string  `json:"label,omitempty"`
	Relation string  `json:"relation,omitempty"`
	Literal  string  `json:"literal"`
	Exact    bool    `json:"exact"`
	Score    float64 `json:"score"`
}

func runKBLookup(ctx context.Context, g globalOptions, o kbLookupOptions, text string, stdout, stderr io.Writer) error {
	if o.Limit < 1 {
		return usageError("kb lookup: --limit must be ≥ 1")
	}
	if strings.TrimSpace(text) == "" {
		return usageError("kb lookup: empty text")
	}
	st, err := openKB(ctx, g, o.KB, stderr)
	if err != nil {
		return fmt.Errorf("kb lookup: %w", err)
	}
	defer func() { _ = st.Close() }()
	var rows []lookupJSON
	if o.Literals {
		cs, err := st.Candidates(ctx, text, o.Limit)
		if err != nil {
			return fmt.Errorf("kb lookup: %w", err)
		}
		for _, c := range cs {
			t, err := st.Term(ctx, c.Node)
			if err != nil {
				return fmt.Errorf("kb lookup: %w", err)
			}
			rows = append(rows, lookupJSON{Literal: t.String(), Exact: c.Exact, Score: c.Score})
		}
	} else {
		ms, err := st.FindEntities(ctx, text, o.Limit, ontology.FindOptions{AnyRelation: o.Any})
		if err != nil {
			return fmt.Errorf("kb lookup: %w", err)
		}
		for _, m := range ms {
			rows = append(rows, lookupJSON{Entity: m.IRI, Label: m.Label, Relation: m.Relation, Literal: m.Literal, Exact: m.Exact, Score: m.Score})
		}
	}
	if o.JSON {
		enc := json.NewEncoder(stdout)
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
	tw := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	if o.Literals {
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

// isTerminal reports whether w is a terminal (progress is shown only there).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// loadProgress returns the Progress callback of 'trawl kb load' and the progress line
// that shows it on a terminal (startProgress): the phase, triples parsed and their
// rate, the bytes read of all dumps and the time left at that rate; finish clears it.
func loadProgress(g *globalOptions) (progress func(ontology.Progress), finish func()) {
	var mu sync.Mutex
	var last ontology.Progress
	start := time.Now()
	finish = startProgress(g, func(now time.Time) (string, bool) {
		mu.Lock()
		p := last
		mu.Unlock()
		if p.Phase == "" {
			return "", false
		}
		secs := max(now.Sub(start).Seconds(), 1e-3)
		line := fmt.Sprintf("kb load: %s, %d triples (%.0f/s)", p.Phase, p.Triples, float64(p.Triples)/secs)
		if p.Total > 0 && p.Phase == "parse" {
			line += fmt.Sprintf(", %.0f of %.0f MiB", float64(p.Read)/(1<<20), float64(p.Total)/(1<<20))
			if p.Read > 0 && p.Read < p.Total {
				left := time.Duration(float64(p.Total-p.Read) / float64(p.Read) * secs * float64(time.Second))
				line += fmt.Sprintf(", parse ends in %v at most", left.Round(time.Second))
			}
		}
		if p.BadLines > 0 {
			line += fmt.Sprintf(", %d bad lines", p.BadLines)
		}
		return line, true
	})
	progress = func(p ontology.Progress) {
		mu.Lock()
		last = p
		mu.Unlock()
	}
	return progress, finish
}
