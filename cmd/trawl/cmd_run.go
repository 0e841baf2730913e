package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

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

Everything goes to <out>/<source>/ (see 'trawl probe --help' for the source name). A run
that is stopped (Ctrl-C, kill -9) resumes where it stopped when it is started again:
finished stages are not redone. --force redoes everything.

The reference KB is --kb: a directory written by 'trawl kb load' or an N-Triples file;
without it, the embedded demo KB (a few thousand real facts about books, authors,
films and countries in YAGO 4.5 vocabulary).`

// runOptions are the flags of 'trawl run'.
type runOptions struct {
	Out      string
	JSON     bool
	pipeline pipelineOptions
}

func newRunCommand(g *globalOptions) *cobra.Command {
	o := runOptions{pipeline: defaultPipelineOptions()}
	var delay, timeout time.Duration
	var noShots, httpPages bool
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
			o.pipeline.Probe.Delay, o.pipeline.Probe.StepTimeout = delay, timeout
			o.pipeline.Probe.Screenshots = !noShots
			_ = setJobOption(&o.pipeline, "http-pages", strconv.FormatBool(httpPages))
			gg := *g
			if gg.stderr == nil {
				gg.stderr = cmd.ErrOrStderr()
			}
			return runRun(cmd.Context(), gg, o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	d := o.pipeline
	f.StringVar(&o.Out, "out", "runs", "output directory; the run goes to <out>/<source>/")
	f.StringVar(&o.pipeline.KB, "kb", "", "reference KB: a 'trawl kb load' directory or an N-Triples file (default: the embedded demo KB)")
	f.IntVar(&o.pipeline.Rounds, "rounds", d.Rounds, "most rounds of ontology-guided probing after the agnostic one (0: none)")
	f.IntVar(&o.pipeline.GuidedValues, "guided-values", d.GuidedValues, "KB values tried per mapped text field and round")
	f.IntVar(&o.pipeline.Probe.MaxProbes, "max-probes", d.Probe.MaxProbes, "most submissions of the agnostic round")
	f.IntVar(&o.pipeline.Probe.MaxPages, "max-pages", d.Probe.MaxPages, "most result pages kept per round")
	f.IntVar(&o.pipeline.Probe.MaxPagesPerProbe, "pages-per-probe", d.Probe.MaxPagesPerProbe, `most pages per probe (the first, then "next" links)`)
	f.IntVar(&o.pipeline.Probe.Tabs, "tabs", d.Probe.Tabs, "browser tabs probing in parallel")
	f.DurationVar(&delay, "delay", d.Probe.Delay, "least time between two requests to the host")
	f.DurationVar(&timeout, "timeout", d.Probe.StepTimeout, "time limit of one browser step")
	f.BoolVar(&o.pipeline.Probe.IgnoreRobots, "ignore-robots", false, "do not read robots.txt (only for your own sites)")
	f.BoolVar(&o.pipeline.Probe.AllowPOST, "allow-post", false, "allow probing a search form that submits with POST")
	f.StringVar(&o.pipeline.Probe.ForceForm, "force-form", "", "probe this form even if it is not a search form: its index, id, name or XPath")
	f.StringVar(&o.pipeline.Probe.ChromePath, "chrome", "", "Chromium binary (default: $TRAWL_CHROME, then /usr/bin/chromium)")
	f.BoolVar(&noShots, "no-screenshots", false, "do not keep PNG screenshots")
	f.IntVar(&o.pipeline.Schema.MaxSubmissions, "max-submissions", d.Schema.MaxSubmissions, "most re-submissions to map the form's fields")
	f.BoolVar(&o.pipeline.Resubmit, "resubmit", d.Resubmit, "map text fields by re-submitting extracted values (thesis §3.4)")
	f.Float64Var(&o.pipeline.Align.LinkThreshold, "link-threshold", d.Align.LinkThreshold, "lowest confidence of an owl:sameAs link")
	f.BoolVar(&o.pipeline.Force, "force", false, "redo every stage, even those already done")
	f.BoolVar(&o.pipeline.NoReport, "no-report", false, "do not write report.html")
	f.BoolVar(&o.JSON, "json", false, "print the summary as JSON on stdout")
	f.BoolVar(&httpPages, "http-pages", false, "fetch GET result pages over plain HTTP once the first probes show them equal to the browser's")
	return cmd
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
	o.pipeline.Dir = filepath.Join(o.Out, probe.Source(o.pipeline.URL))
	if !g.Quiet && !o.JSON {
		o.pipeline.Progress = stagePrinter(g.stderr)
	}
	p := newPipeline(o.pipeline, g.logger())
	defer p.close()
	sum, err := p.run(ctx)
	if err != nil {
		return fmt.Errorf("%s: %w", o.pipeline.Dir, err)
	}
	if o.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(sum)
	}
	printSummary(stdout, sum)
	return nil
}

// stagePrinter prints one line per stage to w.
func stagePrinter(w io.Writer) func(stageEvent) {
	return func(ev stageEvent) {
		switch {
		case ev.Skipped:
			fmt.Fprintf(w, "  %-10s already done\n", ev.Stage)
		case ev.Err != nil:
			fmt.Fprintf(w, "  %-10s failed after %v\n", ev.Stage, ev.Elapsed.Round(time.Millisecond))
		default:
			fmt.Fprintf(w, "  %-10s %v\n", ev.Stage, ev.Elapsed.Round(time.Millisecond))
		}
	}
}

// printSummary writes what a run found, for a person.
func printSummary(w io.Writer, s *pipelineSummary) {
	fmt.Fprintf(w, "%s\n", s.URL)
	fmt.Fprintf(w, "  run directory   %s\n", s.Dir)
	fmt.Fprintf(w, "  probes          %d (%d result pages)\n", s.Probes, s.Pages)
	fmt.Fprintf(w, "  records         %d in %d features\n", s.Records, s.Features)
	if len(s.Mapped) > 0 {
		fmt.Fprintf(w, "  form → records  %s\n", strings.Join(s.Mapped, "; "))
	}
	if s.Class != "" {
		fmt.Fprintf(w, "  record class    %s\n", s.Class)
	}
	for i, r := range s.Relations {
		label := ""
		if i == 0 {
			label = "aligned"
		}
		fmt.Fprintf(w, "  %-15s %s\n", label, r)
	}
	fmt.Fprintf(w, "  sameAs links    %d\n", s.Links)
	fmt.Fprintf(w, "  new facts       %d (enrichment.nt)\n", s.NewFacts)
	for _, r := range s.Rounds {
		if r.Round == 0 {
			continue
		}
		var fields []string
		for f, vs := range r.Plan {
			fields = append(fields, fmt.Sprintf("%s ×%d", f, len(vs)))
		}
		slices.Sort(fields)
		fmt.Fprintf(w, "  guided round %d  %s → %d records, %d links, %d relations (mean confidence %.2f)\n",
			r.Round, strings.Join(fields, ", "), r.Records, r.Links, r.Relations, r.Confidence)
	}
	if s.Report != "" {
		fmt.Fprintf(w, "  report          %s\n", s.Report)
	}
	fmt.Fprintf(w, "  time            %.1fs\n", s.Seconds)
}
