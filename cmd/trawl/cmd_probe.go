package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
)

type probeOptions struct {
	URL          string
	Out          string
	PlanFile     string // field → values JSON; "" = agnostic plan
	Lang         string
	Seed         uint64
	JSON         bool
	NoShots      bool
	NoHarvest    bool
	Probe        probe.Options
	PlanMax      int
	PagesPerProb int
}

const probeLong = `Find the search form of a page and probe it in headless Chromium.

trawl opens URL, lets its scripts run, finds and classifies its forms (forms built by
scripts and search boxes outside a <form> included), and picks the search form. It then
submits it like a person — typing into the boxes, choosing options, clicking the
search button — with domain-agnostic values: a nonsense word (to learn the error page),
the empty form, stop words, single letters, each option of the selects, radio and
checkbox groups, terms from the option texts and the text around the form, and pairs of
options; the last third of --max-probes goes first to words taken from the result
pages, then to the rest of the plan (--no-harvest turns that off). It follows "next" links, and keeps every result page
after its scripts ran.
--plan gives the values instead, as JSON: {"field": ["value", ...], ...}.

It writes <out>/<form>/, named after the URL's host, path and query (and the form given
with --force-form), so that every form has its own run directory:
  form.json      the form: fields, labels, types, options, constraints, method, action
  probes.jsonl   one line per probe: assignment, final URL, status, timings, page files
  pages/         the DOM of each result page (NNNN-K.html) and screenshots (.png)
  form.png       a screenshot of the form
  probe-run.json the effective options, the forms found and the summary

Politeness and safety: only forms classified as search are submitted (--force-form
names another one), POST forms only with --allow-post, never outside the form's origin,
robots.txt is honoured (--ignore-robots for your own sites), requests to the host are
spaced by --delay, and probes and pages are capped. Every submission is logged (-v).

Exit codes: 0 done; 3 some probes failed (see probes.jsonl); 4 refused (the form is not
a search form, or uses POST); 130 interrupted (the probes done so far are kept).

Chromium: /usr/bin/chromium or $TRAWL_CHROME (Debian: apt-get install -y chromium).`

func newProbeCommand(g *globalOptions) *cobra.Command {
	o := probeOptions{Probe: probe.DefaultOptions()}
	cmd := &cobra.Command{
		Use:   "probe URL --out DIR",
		Short: "Find the search form of a page and probe it in headless Chromium",
		Long:  probeLong,
		Example: example(
			"trawl probe http://127.0.0.1:18082/mobile --out runs --ignore-robots",
			"trawl probe https://example.org/search --out runs --max-probes 20 --delay 2s",
			`trawl probe https://example.org/advanced --out runs --plan plan.json   # {"author": ["Tolkien"]}`),
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.URL = args[0]
			return runProbe(cmd.Context(), *g, o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	d := probe.DefaultOptions()
	f.StringVar(&o.Out, "out", "runs", "output directory; the run goes to <out>/<form>/")
	f.StringVar(&o.PlanFile, "plan", "", "JSON file with the values to submit per field, instead of the agnostic plan")
	f.StringVar(&o.Lang, "lang", "", "language of the stop words (en, fr, de, es); default: guessed from the form")
	f.Uint64Var(&o.Seed, "seed", 0, "seed of the nonsense word (0: random)")
	probeFlags(f, &o.Probe, &o.NoShots)
	f.DurationVar(&o.Probe.SettleTimeout, "settle", d.SettleTimeout, "longest wait for a page to stop changing")
	f.Int64Var(&o.Probe.MaxPageBytes, "max-page-bytes", d.MaxPageBytes, "refuse result pages larger than this")
	f.BoolVar(&o.NoHarvest, "no-harvest", false, "do not spend the last third of --max-probes on words taken from the result pages")
	f.BoolVar(&o.JSON, "json", false, "write a JSON summary on stdout")
	return cmd
}

func runProbe(ctx context.Context, g globalOptions, o probeOptions, stdout io.Writer) error {
	if err := checkURL("probe", o.URL); err != nil {
		return err
	}
	var explicit map[string][]string
	if o.PlanFile != "" {
		b, err := os.ReadFile(o.PlanFile)
		if err != nil {
			return usageError("trawl probe: --plan: %v", err)
		}
		if err := json.Unmarshal(b, &explicit); err != nil {
			return usageError("trawl probe: --plan %s: want {\"field\": [\"value\", ...]}: %v", o.PlanFile, err)
		}
	}
	po := pipeline.DefaultOptions()
	po.URL, po.Probe = o.URL, o.Probe
	po.Probe.Screenshots = !o.NoShots
	po.Probe.Harvest = !o.NoHarvest && explicit == nil // an explicit plan is exactly what is submitted
	if err := po.Probe.Validate(); err != nil {
		return usageError("trawl probe: %v", err)
	}
	po.Plan.Lang, po.Plan.Seed = o.Lang, o.Seed
	if po.Plan.Seed == 0 {
		po.Plan.Seed = rand.Uint64() | 1 // --seed 0: a new nonsense word
	}
	po.Dir = filepath.Join(o.Out, rundir.Name(o.URL, po.Probe.ForceForm))
	if g.stderr == nil {
		g.stderr = os.Stderr
	}
	track, stop := pipelineProgress(&g)
	defer stop()
	p := pipeline.New(po, g.logger())
	track(p)
	defer p.Close()
	run, runErr := p.Probe(ctx, explicit, o.PlanFile)
	stop()
	if errors.Is(runErr, pipeline.ErrBadPlan) {
		return usageError("trawl probe: --plan %s: %v", o.PlanFile, runErr)
	}
	if run.Dir == "" { // refused or failed before the run directory was made
		return runErr
	}
	sum := run.Summary
	if o.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(struct {
			Dir string `json:"dir"`
			probe.Summary
		}{run.Dir, sum}); err != nil && runErr == nil {
			runErr = err
		}
	}
	if !g.Quiet {
		stderr := stderrOf(g)
		fmt.Fprintf(stderr, "trawl probe: %d probes (%d failed), %d result pages in %s\n", sum.Probes, sum.Failed, sum.Pages, run.Dir)
		if sum.Stopped != "" {
			fmt.Fprintf(stderr, "trawl probe: stopped early: %s\n", sum.Stopped)
		}
	}
	switch {
	case runErr != nil:
		return runErr
	case sum.Probes > 0 && sum.Failed == sum.Probes:
		return fmt.Errorf("trawl probe: all %d probes failed (first: %s); see %s", sum.Probes, p.FirstProbeError(), filepath.Join(run.Dir, rundir.ProbesFile))
	case sum.Failed > 0:
		return fmt.Errorf("%w: %d of %d probes failed; see %s", errPartial, sum.Failed, sum.Probes, filepath.Join(run.Dir, rundir.ProbesFile))
	}
	return nil
}
