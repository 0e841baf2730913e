package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/output"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
)

// alignOptions are the flags of 'trawl align'.
type alignOptions struct {
	KB1, KB2    string            // N-Triples files (KB1 may be a run directory's graph.nt)
	RunDir      string            // graph-vs-KB mode: the run directory
	Out         string            // output directory
	Gold        []string          // reference alignments to score against
	OptionsFile string            // options.json of an earlier run
	JSON        bool              // machine-readable summary on stdout
	Reification align.Reification // RUN_DIR mode: how enrichment facts are reified
	Format      string            // nt, or turtle for .ttl copies

	// Overrides of align.Options; applied only when the flag is given.
	Iterations      int
	Joins           int
	Literals        string
	SmoothDen       float64
	LinkThreshold   float64
	MatchCandidates int
	Negative        bool
	OneToMany       bool
}

func newAlignCommand(g *globalOptions) *cobra.Command {
	var o alignOptions
	cmd := &cobra.Command{
		Use:   "align RUN_DIR --kb KB | align A B --out DIR",
		Short: "Align a run's graph with a KB, or two KB files, with PARIS",
		Long: `Align two knowledge bases with PARIS: instance equivalences, relation subsumptions
(joins of two steps included, such as author ≙ schema:author / rdfs:label) and class
subsumptions, with confidences.

With two KBs, A is KB1 and B is KB2; each is an N-Triples file or a KB directory
written by 'trawl kb load' (Badger). KB1 is read completely; of KB2 only the
neighbourhood that KB1's literals and equalities reach. The output directory (--out)
receives:
  alignment.tsv   kind TAB left TAB right TAB confidence (instance, relation, class)
  alignment.rdf   the same in the OAEI Alignment format (joins only in the TSV)
  links.nt        owl:sameAs for instance pairs at or above --link-threshold
  options.json    the effective options (reuse them with --options)
  run.json        statistics, per-iteration changes, relation scores with their n

With a run directory, this is the align stage of 'trawl run', and writes the same
files: the record stars of the run's labeled graph (schema.json and records.jsonl) are
KB1, --kb is KB2 (default: the embedded demo KB, as for 'trawl run'), and the run
directory receives the files above and understanding.json (which feature is which KB
relation, the record class) and enrichment.nt (new instances and facts for the KB).

Progress goes to stderr; a summary (and with --gold, precision, recall and F1 per kind
with PARIS's counting convention) to stdout.`,
		Example: example(
			"trawl align person11.nt person12.nt --out out --gold gold.csv --gold schema-gold.tsv",
			"trawl align restaurant1.nt restaurant2.nt --out out --joins 1 --literals exact",
			"trawl align runs/books --kb /data/yago",
			"trawl align runs/127-0-0-1-18090   # with the demo KB"),
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 2 {
				o.KB1, o.KB2 = args[0], args[1]
				if o.Out == "" {
					return usageError("trawl align A.nt B.nt needs --out DIR")
				}
			} else {
				o.RunDir = args[0]
				if o.Out != "" || len(o.Gold) > 0 {
					return usageError("trawl align RUN_DIR writes into RUN_DIR: --out and --gold go with two KBs (trawl align A B --out DIR)")
				}
			}
			if err := checkFormat("align", o.Format); err != nil {
				return err
			}
			opts, err := alignEffectiveOptions(cmd, o)
			if err != nil {
				return err
			}
			gg := g.forCmd(cmd)
			return runAlign(cmd.Context(), gg, o, opts, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Out, "out", "", "output directory")
	f.StringVar(&o.KB2, "kb", "", "reference KB for RUN_DIR mode: a KB directory (trawl kb load) or an N-Triples file (default: the embedded demo KB)")
	f.StringArrayVar(&o.Gold, "gold", nil, "reference alignment to score against: OAEI Alignment RDF/XML, CSV of IRI pairs, or alignment.tsv format (repeatable)")
	f.StringVar(&o.OptionsFile, "options", "", "options.json of an earlier run (flags override it)")
	f.BoolVar(&o.JSON, "json", false, "print the summary as JSON")
	formatFlag(f, &o.Format)
	o.Reification = align.DefaultEnrichOptions().Reification
	f.Var(reificationFlag{&o.Reification}, "reification", `RUN_DIR mode: how enrichment facts carry confidence and provenance: rdf11 (standard reification), rdf12 (RDF 1.2 triple terms) or none`)
	d := align.DefaultOptions()
	f.IntVar(&o.Iterations, "iterations", d.MaxIterations, "maximum number of iterations")
	f.IntVar(&o.Joins, "joins", d.JoinLength, "longest relation path (1 = no joins, 2 or 3)")
	f.StringVar(&o.Literals, "literals", string(d.Literals), "literal matching: exact, normalized or approx")
	f.Float64Var(&o.SmoothDen, "smooth", d.SmoothDenominator, "relation-score damping: a relation matched on n facts scores at most n/(n+smooth)")
	f.Float64Var(&o.LinkThreshold, "link-threshold", d.LinkThreshold, "lowest confidence written as owl:sameAs to links.nt")
	f.IntVar(&o.MatchCandidates, "candidates", d.MatchCandidates, "candidates per entity in the 1:1 assignment (1 = PARIS's takeMaxMax)")
	f.BoolVar(&o.Negative, "negative", d.NegativeEvidence, "weigh negative evidence (aligned relations along which the two entities disagree)")
	f.BoolVar(&o.OneToMany, "one-to-many", d.OneToMany, "let several entities of KB1 link to one of KB2 (a source that lists an entity several times); default 1:1 for two KBs, 1:n in RUN_DIR mode")
	return cmd
}

// alignEffectiveOptions merges defaults, the options file and the flags given.
func alignEffectiveOptions(cmd *cobra.Command, o alignOptions) (align.Options, error) {
	opts := align.DefaultOptions()
	if o.OptionsFile != "" {
		f, err := os.Open(o.OptionsFile)
		if err != nil {
			return opts, usageError("--options: %v", err)
		}
		opts, err = align.ReadOptions(f, o.OptionsFile)
		_ = f.Close()
		if err != nil {
			return opts, usageError("%v", err)
		}
	}
	fl := cmd.Flags()
	if fl.Changed("iterations") {
		opts.MaxIterations = o.Iterations
	}
	if fl.Changed("joins") {
		opts.JoinLength = o.Joins
		opts.JoinSum = min(o.Joins+1, 2*o.Joins) // a join on one side of a pair
	}
	if fl.Changed("literals") {
		opts.Literals = align.LiteralMode(o.Literals)
	}
	if fl.Changed("smooth") {
		opts.SmoothDenominator = o.SmoothDen
	}
	if fl.Changed("link-threshold") {
		opts.LinkThreshold = o.LinkThreshold
	}
	if fl.Changed("candidates") {
		opts.MatchCandidates = o.MatchCandidates
	}
	if fl.Changed("negative") {
		opts.NegativeEvidence = o.Negative
	}
	switch {
	case fl.Changed("one-to-many"):
		opts.OneToMany = o.OneToMany
	case o.RunDir != "" && o.OptionsFile == "":
		opts.OneToMany = pipeline.DefaultOptions().Align.OneToMany
	}
	if err := opts.Validate(); err != nil {
		return opts, usageError("%v", err)
	}
	return opts, nil
}

func runAlign(ctx context.Context, g globalOptions, o alignOptions, opts align.Options, stdout io.Writer) error {
	start := time.Now()
	if !g.Quiet {
		opts.Progress = output.AlignIteration(g.stderr)
	}
	opts.Logger = g.logger()
	if o.RunDir != "" {
		po := pipeline.DefaultOptions()
		po.Dir, po.KB, po.Align = o.RunDir, o.KB2, opts
		po.Enrich.Reification = o.Reification
		p := pipeline.New(po, g.logger())
		defer p.Close()
		a, err := p.Align(ctx)
		if err != nil {
			return err
		}
		o.KB1, o.KB2, o.Out = filepath.Join(o.RunDir, a.KB1), a.KB2, o.RunDir
		return reportAlignment(g, o, opts, a.Result, nil, start, stdout)
	}
	kb1, n1, close1, err := pipeline.LoadKB(ctx, o.KB1, "KB1", g.logger())
	if err != nil {
		return err
	}
	defer close1()
	kb2, n2, close2, err := pipeline.LoadKB(ctx, o.KB2, "KB2", g.logger())
	if err != nil {
		return err
	}
	defer close2()
	gold, err := pipeline.LoadGolds(ctx, o.Gold, kb1, kb2)
	if err != nil {
		return err
	}
	if !g.Quiet {
		fmt.Fprintf(g.stderr, "loaded %s (%d facts) and %s (%d facts) in %v\n", o.KB1, n1, o.KB2, n2, time.Since(start).Round(time.Millisecond))
	}
	res, err := align.Align(ctx, kb1, kb2, opts)
	if err != nil {
		return err
	}
	if err := align.WriteDir(o.Out, res, align.RunInfo{KB1: o.KB1, KB2: o.KB2}); err != nil {
		return err
	}
	return reportAlignment(g, o, opts, res, gold, start, stdout)
}

// reportAlignment prints the summary of an alignment (and its scores against gold).
func reportAlignment(g globalOptions, o alignOptions, opts align.Options, res *align.Result, gold *align.Gold, start time.Time, stdout io.Writer) error {
	sum := output.NewAlignSummary(o.KB1, o.KB2, o.Out, res, gold, opts.LinkThreshold, time.Since(start))
	if !g.Quiet {
		sum.Warn(g.stderr)
	}
	if o.Format == "turtle" {
		if _, err := pipeline.WriteTurtleCopies(o.Out); err != nil {
			return err
		}
	}
	if o.JSON {
		return output.JSON(stdout, sum)
	}
	return sum.Print(stdout, opts.LinkThreshold, gold != nil)
}
