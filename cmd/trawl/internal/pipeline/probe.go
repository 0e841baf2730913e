package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
)

// ErrBadPlan marks an explicit plan that does not fit the form.
var ErrBadPlan = errors.New("the plan does not fit the form")

// ProbeRun is probe-run.json: what a later stage or a person needs to know about the
// probe stage.
type ProbeRun struct {
	URL        string        `json:"url"`
	FinalURL   string        `json:"final_url"`
	Dir        string        `json:"dir"`
	Started    time.Time     `json:"started"`
	Finished   time.Time     `json:"finished"`
	UserAgent  string        `json:"user_agent"`
	Chosen     int           `json:"chosen"`
	Forms      []FormBrief   `json:"forms"`
	Plan       string        `json:"plan"`
	Options    ProbeSettings `json:"options"`
	Summary    probe.Summary `json:"summary"`
	Error      string        `json:"error,omitempty"`
	ScreenShot string        `json:"form_screenshot,omitempty"`
}

// FormBrief is one form found on the page, in probe-run.json.
type FormBrief struct {
	Index      *int        `json:"index"`
	XPath      string      `json:"xpath"`
	Class      probe.Class `json:"class"`
	Confidence float64     `json:"confidence"`
	Action     string      `json:"action"`
	Method     string      `json:"method"`
}

// ProbeSettings are the effective options, as written to probe-run.json.
type ProbeSettings struct {
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

func settingsOf(po probe.Options, pl probe.PlanOptions) ProbeSettings {
	return ProbeSettings{Tabs: po.Tabs, StepTimeout: po.StepTimeout.String(), SettleTimeout: po.SettleTimeout.String(),
		Quiet: po.Quiet.String(), Delay: po.Delay.String(), MaxProbes: po.MaxProbes, MaxPages: po.MaxPages,
		MaxPagesPerProbe: po.MaxPagesPerProbe, MaxPageBytes: po.MaxPageBytes, IgnoreRobots: po.IgnoreRobots, Harvest: po.Harvest,
		AllowPOST: po.AllowPOST, ForceForm: po.ForceForm, Lang: pl.Lang, Seed: pl.Seed}
}

// probeSettings are the options that decide what the probe stage writes.
func (p *Pipeline) probeSettings() any {
	return struct {
		URL       string
		MaxProbes int
		MaxPages  int
		PerProbe  int
		Harvest   bool
		Force     string
		Lang      string
		Seed      uint64
	}{p.o.URL, p.o.Probe.MaxProbes, p.o.Probe.MaxPages, p.o.Probe.MaxPagesPerProbe, p.o.Probe.Harvest, p.o.Probe.ForceForm, p.o.Plan.Lang, p.o.Plan.Seed}
}

// probeStage finds the search form and probes it agnostically.
func (p *Pipeline) probeStage() stage {
	return stage{
		name:    "probe",
		outputs: []string{rundir.FormFile, rundir.ProbesFile},
		options: p.probeSettings(),
		run: func(ctx context.Context) error {
			run, err := p.Probe(ctx, nil, "")
			sum := run.Summary
			switch {
			case err != nil:
				return err
			case sum.Probes > 0 && sum.Failed == sum.Probes:
				return fmt.Errorf("all %d probes failed (first: %s); see %s", sum.Probes, p.FirstProbeError(), filepath.Join(p.o.Dir, rundir.ProbesFile))
			case sum.Pages == 0:
				return fmt.Errorf("the probes of %s returned no result page", p.o.URL)
			}
			return nil
		},
	}
}

// Probe is the probe stage: it discovers the search form of o.URL, checks that it may
// be probed, plans the probes (agnostic, or explicit when explicit is not nil; planName
// names the explicit plan) and runs them into the run directory, writing form.json,
// probes.jsonl, pages/, form.png and probe-run.json. The returned run has Dir set once
// the run directory holds the probes; its Summary tells how the probes went.
func (p *Pipeline) Probe(ctx context.Context, explicit map[string][]string, planName string) (ProbeRun, error) {
	if err := rundir.Claim(p.o.Dir, p.Identity()); err != nil {
		return ProbeRun{}, err
	}
	if _, staged := p.meter.status(); !staged { // 'trawl probe': no stage around it
		p.meter.begin("probe")
		defer p.meter.end()
	}
	pr, err := p.theProber(ctx)
	if err != nil {
		return ProbeRun{}, err
	}
	po, pl := p.o.Probe, p.o.Plan
	po.Logger = p.log
	run := ProbeRun{URL: p.o.URL, Started: time.Now().UTC(), Chosen: -1, UserAgent: p.browser.UserAgent()}
	form, err := p.discover(ctx, pr, &run)
	if err != nil {
		return run, err
	}
	if err := probe.CheckForm(form, po); err != nil {
		return run, err
	}
	if pl.Lang == "" {
		pl.Lang = probe.Language(form)
	}
	var plan probe.Plan
	if explicit != nil {
		if plan, err = probe.ExplicitPlan(form, explicit); err != nil {
			return run, fmt.Errorf("%w: %v", ErrBadPlan, err)
		}
		run.Plan = "explicit: " + planName
	} else {
		pl.MaxProbes = po.MaxProbes
		plan = probe.AgnosticPlan(form, pl)
		run.Plan = "agnostic"
	}
	run.Options = settingsOf(po, pl)
	var done []probe.Done
	if explicit == nil {
		key := newResumeKey(p.probeSettings(), form)
		if !p.o.Force {
			if done, err = finishedProbes(p.o.Dir, key); err != nil {
				return run, err
			}
		}
		if err := os.MkdirAll(filepath.Join(p.o.Dir, rundir.StateDir), 0o755); err != nil {
			return run, err
		}
		if err := rundir.WriteFile(filepath.Join(p.o.Dir, resumeFile), append(key.marshal(), '\n')); err != nil {
			return run, err
		}
	}
	if err := p.runProbes(ctx, pr, form, plan, done, &run); err != nil {
		return run, err
	}
	// The probes are complete: a new run of the stage starts afresh.
	if err := os.Remove(filepath.Join(p.o.Dir, resumeFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return run, err
	}
	return run, nil
}

// discover finds the form to probe and lists the page's forms in run.
func (p *Pipeline) discover(ctx context.Context, pr *probe.Prober, run *ProbeRun) (probe.Form, error) {
	disc, err := pr.Discover(ctx, p.o.URL)
	if errors.Is(err, probe.ErrBlocked) && strings.Contains(err.Error(), "robots.txt") {
		err = fmt.Errorf("%w; if the site is yours, --ignore-robots skips robots.txt", err)
	}
	for i, f := range disc.Forms {
		run.Forms = append(run.Forms, FormBrief{Index: f.Index, XPath: f.XPath, Class: f.Class, Confidence: f.Confidence, Action: f.Action, Method: f.Method})
		if err == nil && i == disc.Chosen {
			run.Chosen = i
		}
	}
	if err != nil {
		return probe.Form{}, err
	}
	run.FinalURL = disc.Page.URL
	return disc.Form(), nil
}

// runProbes writes the form and runs the plan into the run directory, keeping the
// probe log in memory for the next stage.
func (p *Pipeline) runProbes(ctx context.Context, pr *probe.Prober, form probe.Form, plan probe.Plan, done []probe.Done, run *ProbeRun) error {
	dir := p.o.Dir
	var (
		rd   *probe.RunDir
		err  error
		kept []probe.Probe
	)
	for _, d := range done {
		kept = append(kept, d.Probe)
	}
	if len(done) > 0 {
		p.log.Info("resuming the probes of an interrupted run", "kept", len(done), "dir", dir)
		rd, err = probe.ResumeRunDir(dir, kept)
	} else {
		rd, err = probe.CreateRunDir(dir)
	}
	if err != nil {
		return err
	}
	run.Dir = dir
	defer func() { _ = rd.Close() }()
	if err := rd.WriteForm(form); err != nil {
		return err
	}
	p.st.form = &form
	if p.o.Probe.Screenshots {
		if png, err := pr.FormScreenshot(ctx, form); err != nil {
			p.log.Warn("no screenshot of the form", "err", err)
		} else if err := rd.WriteFile(rundir.FormPNG, png); err != nil {
			return err
		} else {
			run.ScreenShot = rundir.FormPNG
		}
	}
	p.log.Info("probing", "form", form.XPath, "class", form.Class, "method", form.Method, "action", form.Action, "probes", len(plan), "dir", dir)
	p.meter.counts("probes", min(len(plan), p.o.Probe.MaxProbes)+extraHarvest(p.o.Probe, len(plan)))
	rec := &keepingRecorder{Recorder: rd, meter: &p.meter, probes: kept}
	for _, k := range kept {
		p.meter.add(k.Error != "")
	}
	sum, runErr := pr.Resume(ctx, form, plan, done, rec)
	p.st.setProbes(rec.probes)
	run.Summary = sum
	run.Finished = time.Now().UTC()
	if runErr != nil {
		run.Error = runErr.Error()
	}
	if err := rd.WriteJSON(rundir.ProbeRunFile, run); err != nil && runErr == nil {
		runErr = err
	}
	return runErr
}

// keepingRecorder records probes as its Recorder does and keeps them.
type keepingRecorder struct {
	probe.Recorder
	meter  *meter // counts the probes for Status; may be nil
	mu     sync.Mutex
	probes []probe.Probe
}

// extraHarvest is how many probes with harvested words may follow a plan of n probes
// (probe.Options.Harvest): what MaxProbes leaves.
func extraHarvest(o probe.Options, n int) int {
	if !o.Harvest {
		return 0
	}
	return max(0, o.MaxProbes-n)
}

// AddProbe implements probe.Recorder.
func (k *keepingRecorder) AddProbe(pr probe.Probe, pages []probe.Page) (probe.Probe, error) {
	pr, err := k.Recorder.AddProbe(pr, pages)
	if err == nil {
		k.mu.Lock()
		k.probes = append(k.probes, pr)
		k.mu.Unlock()
		if k.meter != nil {
			k.meter.add(pr.Error != "")
		}
	}
	return pr, err
}

// FirstProbeError returns the error of the first failed probe of the run directory.
func (p *Pipeline) FirstProbeError() string {
	probes, err := p.st.Probes()
	if err != nil {
		return err.Error()
	}
	for _, pr := range probes {
		if pr.Error != "" {
			return pr.Error
		}
	}
	return "unknown"
}
