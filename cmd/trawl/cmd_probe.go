package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

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

It writes <out>/<source>/ (source is a slug of the URL's host and path):
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
	var delay, timeout, settle time.Duration
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
			o.Probe.Delay, o.Probe.StepTimeout, o.Probe.SettleTimeout = delay, timeout, settle
			return runProbe(cmd.Context(), *g, o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	d := probe.DefaultOptions()
	f.StringVar(&o.Out, "out", "runs", "output directory; the run goes to <out>/<source>/")
	f.StringVar(&o.PlanFile, "plan", "", "JSON file with the values to submit per field, instead of the agnostic plan")
	f.StringVar(&o.Lang, "lang", "", "language of the stop words (en, fr, de, es); default: guessed from the form")
	f.Uint64Var(&o.Seed, "seed", 0, "seed of the nonsense word (0: random)")
	f.IntVar(&o.Probe.Tabs, "tabs", d.Tabs, "browser tabs probing in parallel")
	f.IntVar(&o.Probe.MaxProbes, "max-probes", d.MaxProbes, "most submissions")
	f.IntVar(&o.Probe.MaxPages, "max-pages", d.MaxPages, "most result pages kept")
	f.IntVar(&o.Probe.MaxPagesPerProbe, "pages-per-probe", d.MaxPagesPerProbe, `most pages per probe (the first, then "next" links)`)
	f.DurationVar(&delay, "delay", d.Delay, "least time between two requests to the host")
	f.DurationVar(&timeout, "timeout", d.StepTimeout, "time limit of one browser step (open, submit, next page)")
	f.DurationVar(&settle, "settle", d.SettleTimeout, "longest wait for a page to stop changing")
	f.Int64Var(&o.Probe.MaxPageBytes, "max-page-bytes", d.MaxPageBytes, "refuse result pages larger than this")
	f.BoolVar(&o.Probe.IgnoreRobots, "ignore-robots", false, "do not read robots.txt (only for your own sites)")
	f.BoolVar(&o.Probe.AllowPOST, "allow-post", false, "allow probing a search form that submits with POST")
	f.StringVar(&o.Probe.ForceForm, "force-form", "", "probe this form even if it is not a search form: its index, id, name or XPath")
	f.StringVar(&o.Probe.ChromePath, "chrome", "", "Chromium binary (default: $TRAWL_CHROME, then /usr/bin/chromium)")
	f.BoolVar(&o.NoShots, "no-screenshots", false, "do not keep PNG screenshots")
	f.BoolVar(&o.NoHarvest, "no-harvest", false, "do not spend the last third of --max-probes on words taken from the result pages")
	f.BoolVar(&o.JSON, "json", false, "write a JSON summary on stdout")
	return cmd
}

// probeRun is probe-run.json: what a later stage or a person needs to know about the run.
type probeRun struct {
	URL        string        `json:"url"`
	FinalURL   string        `json:"final_url"`
	Dir        string        `json:"dir"`
	Started    time.Time     `json:"started"`
	Finished   time.Time     `json:"finished"`
	UserAgent  string        `json:"user_agent"`
	Chosen     int           `json:"chosen"`
	Forms      []formBrief   `json:"forms"`
	Plan       string        `json:"plan"`
	Options    probeSettings `json:"options"`
	Summary    probe.Summary `json:"summary"`
	Error      string        `json:"error,omitempty"`
	ScreenShot string        `json:"form_screenshot,omitempty"`
}

type formBrief struct {
	Index      *int        `json:"index"`
	XPath      string      `json:"xpath"`
	Class      probe.Class `json:"class"`
	Confidence float64     `json:"confidence"`
	Action     string      `json:"action"`
	Method     string      `json:"method"`
}

// probeSettings are the effective options, as written to probe-run.json.
type probeSettings struct {
	Tabs             int    `json:"tabs"`
	StepTimeout      string `json:"step_timeout"`
	SettleTimeout    string `json:"settle_timeout"`
	Quiet            string `json:"quiet"`
	Delay            string `json:"delay"`
	MaxProbes        int    `json:"max_probes"`
	MaxPages         int    `json:"max_pages"`
	MaxPagesPerProbe int    `json:"pages_per_probe"`
	MaxPageBytes     int64  `json:"max_page_bytes"`
	IgnoreRobots     bool   `json:"ignore_robots"`
	Harvest          bool   `json:"harvest"`
	AllowPOST        bool   `json:"allow_post"`
	ForceForm        string `json:"force_form,omitempty"`
	Lang             string `json:"lang"`
	Seed             uint64 `json:"seed,omitempty"`
}

func runProbe(ctx context.Context, g globalOptions, o probeOptions, stdout io.Writer) error {
	u, err := url.Parse(o.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageError("trawl probe: %q is not an http(s) URL", o.URL)
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
	log := g.logger()
	po := o.Probe
	po.Logger = log
	po.Screenshots = !o.NoShots
	po.Harvest = !o.NoHarvest && explicit == nil // an explicit plan is exactly what is submitted
	if err := po.Validate(); err != nil {
		return usageError("trawl probe: %v", err)
	}
	b, err := probe.Start(ctx, po)
	if err != nil {
		return err
	}
	defer b.Close()
	p, err := probe.NewProber(b, po)
	if err != nil {
		return err
	}
	defer p.Close()
	pl := probe.DefaultPlanOptions()
	pl.Lang, pl.Seed = o.Lang, o.Seed
	dir := filepath.Join(o.Out, probe.Source(o.URL))
	run, runErr := probeSource(ctx, p, b.UserAgent(), o.URL, dir, po, pl, explicit, o.PlanFile, log)
	if errors.Is(runErr, errBadPlan) {
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
		}{dir, sum}); err != nil && runErr == nil {
			runErr = err
		}
	}
	stderr := g.stderr
	if stderr == nil {
		stderr = os.Stderr
	}
	if !g.Quiet {
		fmt.Fprintf(stderr, "trawl probe: %d probes (%d failed), %d result pages in %s\n", sum.Probes, sum.Failed, sum.Pages, dir)
		if sum.Stopped != "" {
			fmt.Fprintf(stderr, "trawl probe: stopped early: %s\n", sum.Stopped)
		}
	}
	switch {
	case runErr != nil:
		return runErr
	case sum.Probes > 0 && sum.Failed == sum.Probes:
		first := firstProbeError(dir)
		return fmt.Errorf("trawl probe: all %d probes failed (first: %s); see %s", sum.Probes, first, filepath.Join(dir, probe.ProbesFile))
	case sum.Failed > 0:
		return fmt.Errorf("%w: %d of %d probes failed; see %s", errPartial, sum.Failed, sum.Probes, filepath.Join(dir, probe.ProbesFile))
	}
	return nil
}

// errBadPlan marks an explicit plan that does not fit the form.
var errBadPlan = errors.New("the plan does not fit the form")

// probeSource is the probe stage of a run directory: it discovers the search form of
// url, checks that it may be probed, plans the probes (agnostic, or explicit when
// explicit is not nil; planName names the explicit plan) and runs them into dir,
// writing form.json, probes.jsonl, pages/, form.png and probe-run.json. The returned
// run has Dir set once the run directory exists; its Summary tells how the probes went.
func probeSource(ctx context.Context, p *probe.Prober, userAgent, url, dir string, po probe.Options, pl probe.PlanOptions,
	explicit map[string][]string, planName string, log *slog.Logger) (probeRun, error) {
	run := probeRun{URL: url, Started: time.Now().UTC(), Chosen: -1, UserAgent: userAgent}
	disc, err := p.Discover(ctx, url)
	if errors.Is(err, probe.ErrBlocked) && strings.Contains(err.Error(), "robots.txt") {
		err = fmt.Errorf("%w; if the site is yours, --ignore-robots skips robots.txt", err)
	}
	for i, f := range disc.Forms {
		run.Forms = append(run.Forms, formBrief{Index: f.Index, XPath: f.XPath, Class: f.Class, Confidence: f.Confidence, Action: f.Action, Method: f.Method})
		if err == nil && i == disc.Chosen {
			run.Chosen = i
		}
	}
	if err != nil {
		return run, err
	}
	form := disc.Form()
	run.FinalURL = disc.Page.URL
	if err := probe.CheckForm(form, po); err != nil {
		return run, err
	}
	var plan probe.Plan
	if pl.Lang == "" {
		pl.Lang = probe.Language(form)
	}
	if explicit != nil {
		if plan, err = probe.ExplicitPlan(form, explicit); err != nil {
			return run, fmt.Errorf("%w: %v", errBadPlan, err)
		}
		run.Plan = "explicit: " + planName
	} else {
		pl.MaxProbes = po.MaxProbes
		plan = probe.AgnosticPlan(form, pl)
		run.Plan = "agnostic"
	}
	rd, err := probe.CreateRunDir(dir)
	if err != nil {
		return run, err
	}
	run.Dir = dir
	defer func() { _ = rd.Close() }()
	if err := rd.WriteForm(form); err != nil {
		return run, err
	}
	if po.Screenshots {
		if png, err := p.FormScreenshot(ctx, form); err != nil {
			log.Warn("no screenshot of the form", "err", err)
		} else if err := rd.WriteFile(probe.FormPNG, png); err != nil {
			return run, err
		} else {
			run.ScreenShot = probe.FormPNG
		}
	}
	run.Options = probeSettings{Tabs: po.Tabs, StepTimeout: po.StepTimeout.String(), SettleTimeout: po.SettleTimeout.String(),
		Quiet: po.Quiet.String(), Delay: po.Delay.String(), MaxProbes: po.MaxProbes, MaxPages: po.MaxPages,
		MaxPagesPerProbe: po.MaxPagesPerProbe, MaxPageBytes: po.MaxPageBytes, IgnoreRobots: po.IgnoreRobots, Harvest: po.Harvest,
		AllowPOST: po.AllowPOST, ForceForm: po.ForceForm, Lang: pl.Lang, Seed: pl.Seed}
	log.Info("probing", "form", form.XPath, "class", form.Class, "method", form.Method, "action", form.Action, "probes", len(plan), "dir", dir)

	sum, runErr := p.Run(ctx, form, plan, rd)
	run.Summary = sum
	run.Finished = time.Now().UTC()
	if runErr != nil {
		run.Error = runErr.Error()
	}
	if err := rd.WriteJSON("probe-run.json", run); err != nil && runErr == nil {
		runErr = err
	}
	return run, runErr
}

// firstProbeError returns the error of the first failed probe of a run directory.
func firstProbeError(dir string) string {
	probes, err := probe.ReadProbes(dir)
	if err != nil {
		return err.Error()
	}
	for _, p := range probes {
		if p.Error != "" {
			return p.Error
		}
	}
	return "unknown"
}
