package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/output"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/progress"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/rusage"
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
	f.Int64Var(&o.SortMemoryMB, "sort-memory", def.SortMemoryMB, "memory budget in MiB: bounds the anonymous memory of the load (sort buffers, runs, merge, Badger's table builders); beyond it, sorted runs spill to disk (at least 128 to be honoured; see ontology/doc.go)")
	f.IntVar(&o.Workers, "workers", def.Workers, "parsing goroutines")
	f.Uint64Var(&o.IDSalt, "id-salt", 0, "seed of the node identifier hash (change only after an identifier collision)")
	f.BoolVar(&o.NoLabels, "no-derived-labels", false, "do not derive rdfs:label from the names of bare YAGO3-10 TSV files")
	f.BoolVar(&o.JSON, "json", false, "print the load report as JSON")
	return cmd
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
		l := progress.NewLoad()
		opts.Progress, finish = l.Update, startProgress(&g, l.State)
	}
	opts.Logger = g.logger() // after the progress line: its logs go above the line
	cpu0 := rusage.CPUTime()
	start := time.Now()
	rep, err := ontology.Load(ctx, o.KB, srcs, opts)
	finish()
	if rep == nil {
		rep = &ontology.LoadReport{}
	}
	wall := time.Since(start)
	sum := output.NewLoadSummary(o.KB, rep, wall, rusage.CPUTime()-cpu0, rusage.PeakRSS())
	if err != nil {
		sum.Error = err.Error()
		if o.JSON {
			_ = output.JSON(stdout, sum) // the load error below is what matters
		}
		return fmt.Errorf("kb load: %w", err)
	}
	if o.JSON {
		if err := output.JSON(stdout, sum); err != nil {
			return err
		}
	} else {
		sum.Print(stdout, len(dumps))
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

func runKBStats(ctx context.Context, g globalOptions, o kbStatsOptions, stdout, stderr io.Writer) error {
	if o.Top < 0 {
		return usageError("kb stats: --top must be ≥ 0")
	}
	g.stderr = stderr
	st, err := pipeline.OpenKB(ctx, o.KB, g.logger())
	if err != nil {
		return fmt.Errorf("kb stats: %w", err)
	}
	defer func() { _ = st.Close() }()
	s := st.Stats()
	rels := s.Relations
	if o.Top > 0 && len(rels) > o.Top {
		rels = rels[:o.Top]
	}
	return output.Stats(stdout, s, rels, o.JSON)
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

func runKBLookup(ctx context.Context, g globalOptions, o kbLookupOptions, text string, stdout, stderr io.Writer) error {
	if o.Limit < 1 {
		return usageError("kb lookup: --limit must be ≥ 1")
	}
	if strings.TrimSpace(text) == "" {
		return usageError("kb lookup: empty text")
	}
	g.stderr = stderr
	st, err := pipeline.OpenKB(ctx, o.KB, g.logger())
	if err != nil {
		return fmt.Errorf("kb lookup: %w", err)
	}
	defer func() { _ = st.Close() }()
	rows, err := pipeline.Lookup(ctx, st, text, o.Limit, o.Literals, o.Any)
	if err != nil {
		return fmt.Errorf("kb lookup: %w", err)
	}
	return output.Lookup(stdout, stderr, text, rows, o.Literals, o.JSON)
}
