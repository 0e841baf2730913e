package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
)

const runLong = `Run the whole pipeline on one search form:

  probe    find the search form of URL in headless Chromium and probe it without domain
           knowledge (a nonsense word, stop words, letters, option values, words of the page)
  extract  isolate the result records with FOREST
  schema   align the record attributes into an output schema; map the form's fields to
           them by re-submitting extracted values
  graph    write the records as a labeled RDF graph (graph.nt)
  align    align that graph with the reference KB (PARIS, joins of two steps): which
           attribute is which KB relation, which record is which KB entity; write the
           enrichment of the KB (new instances and facts, with confidences)
  rounds   ontology-guided probing: type KB values into the fields the alignment
           explains (author names into an author field), and align again, until the
           alignment stops improving or --rounds is spent
  report   report.html, one self-contained page to read

Everything goes to <out>/<form>/ (see 'trawl probe --help' for the name). A run
that is stopped (Ctrl-C, kill -9) resumes where it stopped when it is started again:
finished stages are not redone. --force redoes everything.

The reference KB is --kb: a directory written by 'trawl kb load' or an N-Triples file;
without it, the embedded demo KB (a few thousand real facts about books, authors,
films and countries in YAGO 4.5 vocabulary).`

// runOptions are the flags of 'trawl run'.
type runOptions struct {
	Out      string
	JSON     bool
	Format   string
	pipeline pipeline.Options
}

func newRunCommand(g *globalOptions) *cobra.Command {
	o := runOptions{pipeline: pipeline.DefaultOptions()}
	var noShots bool
	cmd := &cobra.Command{
		Use:   "run URL [--kb DIR] [--out DIR]",
		Short: "Run the whole pipeline on one search form",
		Long:  runLong,
		Example: example(
			"trawl run http://127.0.0.1:18082/mobile --out runs --ignore-robots",
			"trawl run https://example.org/search --kb /data/yago --out runs --rounds 3"),
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.pipeline.URL = args[0]
			o.pipeline.Probe.Screenshots = !noShots
			gg := g.forCmd(cmd)
			return runRun(cmd.Context(), gg, o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	d := o.pipeline
	f.StringVar(&o.Out, "out", "runs", "output directory; the run goes to <out>/<form>/")
	f.StringVar(&o.pipeline.KB, "kb", "", "reference KB: a 'trawl kb load' directory or an N-Triples file (default: the embedded demo KB)")
	f.IntVar(&o.pipeline.Rounds, "rounds", d.Rounds, "most rounds of ontology-guided probing after the agnostic one (0: none)")
	f.IntVar(&o.pipeline.GuidedValues, "guided-values", d.GuidedValues, "KB values tried per mapped text field and round")
	probeFlags(f, &o.pipeline.Probe, &noShots)
	f.IntVar(&o.pipeline.Schema.MaxSubmissions, "max-submissions", d.Schema.MaxSubmissions, "most re-submissions to map the form's fields")
	f.BoolVar(&o.pipeline.Resubmit, "resubmit", d.Resubmit, "map text fields by re-submitting extracted values (thesis §3.4)")
	f.Float64Var(&o.pipeline.Align.LinkThreshold, "link-threshold", d.Align.LinkThreshold, "lowest confidence of an owl:sameAs link")
	outputFlags(f, &o.pipeline)
	formatFlag(f, &o.Format)
	f.BoolVar(&o.pipeline.Force, "force", false, "redo every stage, even those already done")
	f.BoolVar(&o.pipeline.NoReport, "no-report", false, "do not write report.html")
	f.BoolVar(&o.pipeline.HTTPPages, "http-pages", false, "fetch GET result pages over plain HTTP once the first probes show them equal to the browser's")
	f.BoolVar(&o.JSON, "json", false, "print the summary as JSON on stdout")
	return cmd
}

// outputFlags binds the flags of the RDF that a run writes: the base of minted IRIs and
// how enrichment facts carry their confidence.
func outputFlags(f *pflag.FlagSet, po *pipeline.Options) {
	f.StringVar(&po.Graph.Base, "base", graph.DefaultBase, "base IRI of everything minted: records ({base}/src/{source}/rec/…), features (…/p/…), new relations (…/rel/…) and new entities (…/entity/…)")
	f.Var(reificationFlag{&po.Enrich.Reification}, "reification", `how enrichment facts carry confidence and provenance: rdf11 (standard reification, read by every RDF 1.1 tool), rdf12 (RDF 1.2 triple terms) or none`)
}

// reificationFlag is the --reification flag: one of the align.Reification modes.
type reificationFlag struct{ v *align.Reification }

func (r reificationFlag) String() string {
	if r.v == nil {
		return ""
	}
	return string(*r.v)
}

func (r reificationFlag) Set(s string) error {
	switch m := align.Reification(s); m {
	case align.ReifyRDF11, align.ReifyRDF12, align.ReifyNone:
		*r.v = m
		return nil
	}
	return fmt.Errorf("want rdf11, rdf12 or none, got %q", s)
}

func (reificationFlag) Type() string { return "mode" }

// probeFlags binds the probing flags that 'trawl run' and 'trawl probe' share.
func probeFlags(f *pflag.FlagSet, po *probe.Options, noShots *bool) {
	d := probe.DefaultOptions()
	f.IntVar(&po.MaxProbes, "max-probes", d.MaxProbes, "most submissions (of the agnostic round)")
	f.IntVar(&po.MaxPages, "max-pages", d.MaxPages, "most result pages kept (per round)")
	f.IntVar(&po.MaxPagesPerProbe, "pages-per-probe", d.MaxPagesPerProbe, `most pages per probe (the first, then "next" links)`)
	f.IntVar(&po.Tabs, "tabs", d.Tabs, "browser tabs probing in parallel")
	f.DurationVar(&po.Delay, "delay", d.Delay, "least time between the answer to a request and the next request to the host")
	f.DurationVar(&po.StepTimeout, "timeout", d.StepTimeout, "time limit of one browser step (open, submit, next page)")
	f.BoolVar(&po.IgnoreRobots, "ignore-robots", false, "do not read robots.txt (only for your own sites)")
	f.BoolVar(&po.AllowPOST, "allow-post", false, "allow probing a search form that submits with POST")
	f.StringVar(&po.ForceForm, "force-form", "", "probe this form even if it is not a search form: its index, id, name or XPath")
	f.StringVar(&po.ChromePath, "chrome", "", "Chromium binary (default: $TRAWL_CHROME, then /usr/bin/chromium)")
	f.BoolVar(noShots, "no-screenshots", false, "do not keep PNG screenshots")
}

// checkURL accepts only absolute http(s) URLs.
func checkURL(cmdName, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageError("trawl %s: %q is not an http(s) URL (trawl refuses file: and other schemes)", cmdName, raw)
	}
	return nil
}

func runRun(ctx context.Context, g globalOptions, o runOptions, stdout io.Writer) error {
	if err := checkURL("run", o.pipeline.URL); err != nil {
		return err
	}
	if o.pipeline.Rounds < 0 || o.pipeline.GuidedValues < 1 {
		return usageError("trawl run: --rounds must be ≥ 0 and --guided-values ≥ 1")
	}
	if err := o.pipeline.Probe.Validate(); err != nil {
		return usageError("trawl run: %v", err)
	}
	if err := checkFormat("run", o.Format); err != nil {
		return err
	}
	if _, err := graph.NewNamespace(o.pipeline.Graph.Base, "check"); err != nil {
		return usageError("trawl run: --base %q: %v", o.pipeline.Graph.Base, err)
	}
	o.pipeline.Dir = filepath.Join(o.Out, rundir.Name(o.pipeline.URL, o.pipeline.Probe.ForceForm))
	track, stop := pipelineProgress(&g)
	defer stop()
	if !g.Quiet && !o.JSON {
		o.pipeline.Progress = pipeline.StagePrinter(g.stderr)
	}
	p := pipeline.New(o.pipeline, g.logger())
	track(p)
	defer p.Close()
	sum, err := p.Run(ctx)
	stop()
	if err != nil {
		return fmt.Errorf("%s: %w", o.pipeline.Dir, err)
	}
	if o.Format == "turtle" {
		if _, err := writeTurtleCopies(o.pipeline.Dir); err != nil {
			return fmt.Errorf("%s: %w", o.pipeline.Dir, err)
		}
	}
	if o.JSON {
		if err := writeJSON(stdout, sum); err != nil {
			return err
		}
	} else {
		sum.WriteText(stdout)
	}
	return partialRun(sum)
}

// partialRun returns an error wrapping errPartial (exit status 3) when the run finished
// with failed probes or unreadable result pages, nil otherwise.
func partialRun(sum *pipeline.Summary) error {
	if sum.Failed == 0 && sum.Unreadable == 0 {
		return nil
	}
	var what []string
	if sum.Failed > 0 {
		what = append(what, fmt.Sprintf("%d of %d probes failed (first: %s)", sum.Failed, sum.Probes, sum.FirstError))
	}
	if sum.Unreadable > 0 {
		what = append(what, fmt.Sprintf("%d of %d result pages cannot be read", sum.Unreadable, sum.Pages))
	}
	return fmt.Errorf("%s: %w: %s; see %s", sum.Dir, errPartial, strings.Join(what, ", "), filepath.Join(sum.Dir, rundir.ProbesFile))
}
