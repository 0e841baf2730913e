package probe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

var (
	// ErrRefused marks every refusal of the form guard (cmd maps it to exit code 4).
	ErrRefused = errors.New("probe: refused")
	// ErrNotSearchForm marks a form that is not classified as a search form (or has
	// fields no search form has); --force-form overrides it.
	ErrNotSearchForm = fmt.Errorf("%w: not a search form", ErrRefused)
	// ErrNoForm marks a page without any form.
	ErrNoForm = errors.New("probe: no form on the page")
)

// sideEffect matches words of actions and labels of forms that change data or reach
// a person: trawl never submits those (deepweb.md §14 rule 1).
var sideEffect = regexp.MustCompile(`(?i)(log-?in|sign-?in|sign-?up|register|subscribe|newsletter|contact|comment|feedback|cart|basket|checkout|payment|order|buy|purchase|delete|remove|unsubscribe|password|account)`)

// CheckForm is the form guard: it returns an error wrapping ErrRefused when trawl must
// not submit f. A form must be classified as a search form, have no password or file
// field and no action that changes data (unless o.ForceForm is set), submit with GET
// (unless o.AllowPOST), and submit to an http(s) URL on the origin of its page (always).
func CheckForm(f Form, o Options) error {
	forced := o.ForceForm != ""
	pu, err := url.Parse(f.PageURL)
	if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") {
		return fmt.Errorf("%w: the form's page %q is not an http(s) URL", ErrRefused, f.PageURL)
	}
	if !forced {
		if f.Class != ClassSearch {
			return fmt.Errorf("%w: the form %s is classified %q (confidence %.2f); name it with --force-form to probe it anyway", ErrNotSearchForm, formName(f), f.Class, f.Confidence)
		}
		for _, fd := range f.Fields {
			if fd.Type == "password" || fd.Type == "file" {
				return fmt.Errorf("%w: the form %s has a %s field (%q)", ErrNotSearchForm, formName(f), fd.Type, fd.Name)
			}
		}
		if au, err := url.Parse(f.Action); err == nil && sideEffect.MatchString(au.Path) {
			return fmt.Errorf("%w: the form %s submits to %s, which looks like an action with side effects", ErrNotSearchForm, formName(f), au.Path)
		}
	}
	if strings.EqualFold(f.Method, "POST") && !o.AllowPOST {
		return fmt.Errorf("%w: the form %s submits with POST, which may change data on the site; allow it with --allow-post", ErrRefused, formName(f))
	}
	if f.Action != "" {
		au, err := url.Parse(f.Action)
		if err != nil {
			return fmt.Errorf("%w: the form's action %q is not a URL", ErrRefused, f.Action)
		}
		au = pu.ResolveReference(au)
		switch {
		case au.Scheme == "javascript":
			// submitted by the page's own script, on the page's origin
		case au.Scheme != "http" && au.Scheme != "https":
			return fmt.Errorf("%w: the form's action %s is not an http(s) URL", ErrRefused, au)
		case originOf(au) != originOf(pu):
			return fmt.Errorf("%w: the form submits to %s, outside the origin %s of its page", ErrRefused, originOf(au), originOf(pu))
		}
	}
	return nil
}

// formName names a form in messages.
func formName(f Form) string {
	switch {
	case f.Index != nil:
		return fmt.Sprintf("#%d (%s)", *f.Index, f.XPath)
	case f.XPath != "":
		return f.XPath
	}
	return "(unnamed)"
}

// Prober submits forms in a pool of browser tabs, politely. Create it with NewProber,
// Close it when done (the Browser stays open).
type Prober struct {
	b    *Browser
	opts Options
	pol  *policy
	pool *pool
	log  *slog.Logger
	http *httpPath // nil: every page comes from the browser
}

// NewProber returns a prober over the browser with its own tabs (opts.Tabs) and
// robots.txt cache; the per-host delay is the browser's, shared by its probers.
func NewProber(b *Browser, opts Options) (*Prober, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	log := opts.logger()
	// The browser's limiter spaces the requests of all its probers: a run's guided
	// rounds and re-submissions included.
	pol := &policy{opts: opts, limits: newLimits(opts.StepTimeout, opts.SettleTimeout), lim: b.lim, delay: opts.Delay, maxBytes: opts.MaxPageBytes}
	if !opts.IgnoreRobots {
		pol.robots = newRobotsCache(b.ua, log, b.lim, opts.Delay)
	}
	p := &Prober{b: b, opts: opts, pol: pol, pool: newPool(b, pol, opts.Tabs), log: log}
	if opts.HTTPCompare != nil {
		p.http = newHTTPPath(p, opts.HTTPCompare())
	}
	return p, nil
}

// Close closes the prober's tabs.
func (p *Prober) Close() { p.pool.close() }

// checkURL accepts only absolute http(s) URLs.
func checkURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("probe: %q is not a URL: %w", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("probe: %q: only http and https URLs are accepted", raw)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("probe: %q has no host", raw)
	}
	return u, nil
}

// Open loads a page in a tab and returns it once settled (scripts ran). Redirects may
// lead to another origin; robots.txt applies. A page that stopped answering or a step
// out of time is tried again, as probes are (MaxAttempts).
func (p *Prober) Open(ctx context.Context, pageURL string) (Page, error) {
	if _, err := checkURL(pageURL); err != nil {
		return Page{}, err
	}
	var pg Page
	var err error
	for attempt := 1; ; attempt++ {
		pg, err = p.openOnce(ctx, pageURL)
		if err == nil || !retryable(err) || attempt >= MaxAttempts || ctx.Err() != nil {
			return pg, err
		}
		wait := p.pol.limits.script() / 3 << (attempt - 1)
		p.log.Warn("open failed; trying again", "url", pageURL, "attempt", attempt, "wait", wait, "err", err)
		sleepCtx(ctx, wait)
	}
}

// openOnce is one attempt of Open.
func (p *Prober) openOnce(ctx context.Context, pageURL string) (Page, error) {
	t, err := p.pool.acquire(ctx)
	if err != nil {
		return Page{}, err
	}
	defer p.pool.release(t)
	t.setOrigin("")
	sctx, cancel := t.stepCtx(ctx, p.opts.StepTimeout)
	defer cancel()
	start := time.Now()
	sr, err := t.navigate(sctx, pageURL)
	if err != nil {
		return Page{}, fmt.Errorf("probe: %w", err)
	}
	pg, err := t.capture(sctx, true)
	if err != nil {
		return Page{}, fmt.Errorf("probe: read %s: %w", pageURL, err)
	}
	pg.Elapsed = time.Since(start)
	pg.Warnings = append(sr.Warnings, pg.Warnings...)
	return pg, nil
}

// FormScreenshot opens the form's page and returns a PNG of the form.
func (p *Prober) FormScreenshot(ctx context.Context, f Form) ([]byte, error) {
	t, err := p.pool.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer p.pool.release(t)
	t.setOrigin("")
	sctx, cancel := t.stepCtx(ctx, p.opts.StepTimeout)
	defer cancel()
	if _, err := t.navigate(sctx, f.PageURL); err != nil {
		return nil, fmt.Errorf("probe: %w", err)
	}
	png, err := t.screenshot(sctx, f.XPath)
	if err != nil {
		return nil, fmt.Errorf("probe: screenshot of the form: %w", err)
	}
	if png == nil {
		return nil, fmt.Errorf("probe: the form %s has no visible box", formName(f))
	}
	return png, nil
}

// Submit submits the form once with the values (fields left out keep their defaults)
// and returns the result pages: the first, then those reached by "next" links, up to
// MaxPagesPerProbe. The form guard applies. Package schema re-submits forms through it
// (input–output mapping).
func (p *Prober) Submit(ctx context.Context, f Form, values map[string]string) ([]Page, error) {
	if err := CheckForm(f, p.opts); err != nil {
		return nil, err
	}
	t, err := p.pool.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer p.pool.release(t)
	p.log.Info("submit", "form", f.Action, "method", f.Method, "values", values)
	sub, err := p.submit(ctx, t, f, values, p.opts.MaxPagesPerProbe, false)
	if n := len(sub.Pages); n > 0 {
		sub.Pages[n-1].Warnings = append(sub.Pages[n-1].Warnings, sub.Warnings...)
	}
	if err != nil {
		return sub.Pages, fmt.Errorf("probe: submit %v to %s: %w", values, f.PageURL, err)
	}
	return sub.Pages, nil
}

// Recorder keeps the probes of a run: it saves the pages, fills in Probe.Pages and
// writes the probe (RunDir does this for a run directory).
type Recorder interface {
	AddProbe(p Probe, pages []Page) (Probe, error)
}

// Summary tells how a run went.
type Summary struct {
	// Probes is the number of probes run (and recorded); Failed of them ended in an
	// error; Pages is the number of result pages kept.
	Probes int `json:"probes"`
	Failed int `json:"failed"`
	Pages  int `json:"pages"`
	// Unanswered counts the probes with every text box empty that the site answered
	// with its form page unchanged (Probe.Unanswered): not failures.
	Unanswered int `json:"unanswered,omitempty"`
	// Retried counts the probes that needed more than one attempt (a page that could
	// not count, a page that stopped answering, a step out of time), whether a later
	// attempt succeeded or not.
	Retried int `json:"retried"`
	// Planned is the length of the plan; Harvested counts the probes with harvested
	// words run after it; Stopped says why a run ended before its plan did ("" when it
	// did not).
	Planned   int    `json:"planned"`
	Harvested int    `json:"harvested"`
	Stopped   string `json:"stopped,omitempty"`
	// Resumed counts the probes kept from an interrupted run (Resume); they are among
	// Probes, Failed, Pages and Harvested.
	Resumed int `json:"resumed,omitempty"`
}

// MaxAttempts is how often one probe is tried: a probe whose result page cannot count
// (empty, head-only, without an HTTP status), whose page stopped answering or whose step
// ran out of time is tried again after a pause (a third of the page-script limit,
// doubled at each new attempt). A submission that left the form page unchanged is tried
// twice only: sites answer an empty query that way, every time. When every text box of
// the submission was empty, two such answers are the site's answer, not a failure
// (Probe.Unanswered).
const MaxAttempts = 3

// Run submits the form once per assignment of the plan (at most MaxProbes), in
// parallel tabs, keeping at most MaxPages pages, and records every probe with rec as
// soon as it ends (so an interrupted run keeps what it did). With Options.Harvest, the
// last third of the MaxProbes budget goes to words harvested from the result pages (see
// KindHarvest) before the rest of the plan, which fills what the harvest leaves. The
// form guard applies first. A failed probe is retried (MaxAttempts), then recorded with
// its error, and does not stop the run; an error of rec or the end of ctx does.
func (p *Prober) Run(ctx context.Context, f Form, plan Plan, rec Recorder) (Summary, error) {
	return p.run(ctx, f, plan, nil, rec)
}

// run is Run after the probes done of an interrupted run (Resume).
func (p *Prober) run(ctx context.Context, f Form, plan Plan, done []Done, rec Recorder) (Summary, error) {
	r := &runState{p: p, f: f, rec: rec, sum: Summary{Planned: len(plan)}}
	if err := CheckForm(f, p.opts); err != nil {
		return r.sum, err
	}
	if len(plan) > p.opts.MaxProbes {
		plan = plan[:p.opts.MaxProbes]
		r.sum.Stopped = fmt.Sprintf("the plan has %d probes; MaxProbes is %d", r.sum.Planned, p.opts.MaxProbes)
	}
	r.start(plan)
	queue, rest := r.split(plan)
	queue, rest = r.resume(done, queue, rest)
	for {
		ok := true
		for len(queue) > 0 && ok {
			ok = r.dispatch(ctx, queue[0])
			queue = queue[1:]
		}
		if !ok {
			break
		}
		left := r.left()
		if left <= 0 {
			break
		}
		if r.harvest {
			queue = append(queue, r.harvested(left)...)
		}
		if len(queue) == 0 && len(rest) > 0 {
			queue, rest = rest[:min(len(rest), left)], nil
		}
		if len(queue) == 0 {
			break
		}
	}
	return r.finish(ctx)
}

// runState is what the probes of one Run share.
type runState struct {
	p   *Prober
	f   Form
	rec Recorder

	wg       sync.WaitGroup
	mu       sync.Mutex
	sum      Summary
	pagesGot int // pages kept and reserved
	n        int // probes dispatched
	shotDone bool
	recErr   error
	h        *harvester
	harvest  bool
	kws      []Field
	stops    []string
}

// start sets up the harvest: the plan's own words are not harvested again.
func (r *runState) start(plan Plan) {
	r.shotDone = !r.p.opts.Screenshots
	r.h = newHarvester()
	r.kws = keywordFields(r.f)
	r.harvest = r.p.opts.Harvest && len(r.kws) > 0
	r.stops = textnorm.StopWords(detectLang(r.f))
	for _, a := range plan {
		for _, fd := range r.f.Fields {
			if v := a.Values[fd.Name]; v != "" && fillKind(fd) == "text" {
				r.h.use(v)
			}
		}
	}
}

// split returns the probes to run first and those that wait: with harvesting, the
// plan's last third waits, so that harvested words go first and the rest of the plan
// fills what the harvest leaves unused.
func (r *runState) split(plan Plan) (queue, rest Plan) {
	queue = slices.Clone(plan) // a copy: harvested probes are appended
	if r.harvest {
		keep := max(1, r.p.opts.MaxProbes-r.p.opts.MaxProbes/3)
		if len(queue) > keep {
			queue, rest = queue[:keep:keep], queue[keep:]
		}
	}
	return queue, rest
}

// left returns how many probes the budget still allows.
func (r *runState) left() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.p.opts.MaxProbes - r.n
}

// harvested waits for the probes under way (their pages feed the harvest) and returns
// probes of the next harvested words.
func (r *runState) harvested(left int) []Assignment {
	r.wg.Wait()
	r.mu.Lock()
	terms := r.h.next(min(left, 2*r.p.opts.Tabs))
	r.h.use(terms...)
	r.mu.Unlock()
	filler := firstFitting(r.stops, r.kws)
	var out []Assignment
	for _, term := range terms {
		if v, ok := fitText(r.kws[0], term); ok {
			a := Assignment{Kind: KindHarvest, Values: map[string]string{r.kws[0].Name: v}}
			completeRequired(r.f, &a, filler)
			out = append(out, a)
		}
	}
	return out
}

// reserve takes a tab and a page budget for one probe; it returns false (and says
// why in the summary) when the run must stop.
func (r *runState) reserve(ctx context.Context) (*tab, int, bool) {
	if ctx.Err() != nil {
		r.sum.Stopped = "interrupted"
		return nil, 0, false
	}
	r.mu.Lock()
	stop := r.recErr != nil
	budget := min(r.p.opts.MaxPagesPerProbe, r.p.opts.MaxPages-r.pagesGot)
	r.mu.Unlock()
	if stop {
		return nil, 0, false
	}
	if budget < 1 {
		r.sum.Stopped = fmt.Sprintf("the page budget (MaxPages %d) is spent", r.p.opts.MaxPages)
		return nil, 0, false
	}
	t, err := r.p.pool.acquire(ctx)
	if err != nil {
		if ctx.Err() != nil {
			r.sum.Stopped = "interrupted"
		} else {
			r.mu.Lock()
			r.recErr = fmt.Errorf("probe: %w", err)
			r.mu.Unlock()
		}
		return nil, 0, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	// The budget may have changed while waiting for a tab.
	budget = min(r.p.opts.MaxPagesPerProbe, r.p.opts.MaxPages-r.pagesGot)
	if budget < 1 || r.recErr != nil {
		r.p.pool.release(t)
		if budget < 1 {
			r.sum.Stopped = fmt.Sprintf("the page budget (MaxPages %d) is spent", r.p.opts.MaxPages)
		}
		return nil, 0, false
	}
	r.pagesGot += budget
	return t, budget, true
}

// dispatch starts one probe in a tab; it returns false when the run must stop.
func (r *runState) dispatch(ctx context.Context, a Assignment) bool {
	t, budget, ok := r.reserve(ctx)
	if !ok {
		return false
	}
	r.mu.Lock()
	r.n++
	num := r.n
	shot := false
	if !r.shotDone && a.Kind != KindNonsense && a.Kind != KindEmpty {
		shot, r.shotDone = true, true
	}
	r.mu.Unlock()
	r.wg.Go(func() {
		pr, pages, t := r.p.runOne(ctx, t, r.f, a, num, budget, shot)
		if t != nil {
			r.p.pool.release(t)
		}
		if r.harvest && pr.Error == "" && a.Kind != KindNonsense {
			h2 := newHarvester()
			h2.add(pages) // parse outside the lock
			r.mu.Lock()
			r.h.merge(h2)
			r.mu.Unlock()
		}
		r.record(a, pr, pages, budget)
	})
	return true
}

// record writes one probe and counts it.
func (r *runState) record(a Assignment, pr Probe, pages []Page, budget int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pagesGot -= budget - len(pages)
	if r.recErr != nil {
		return
	}
	if _, err := r.rec.AddProbe(pr, pages); err != nil {
		r.recErr = fmt.Errorf("probe: record probe %d: %w", pr.N, err)
		return
	}
	r.sum.Probes++
	r.sum.Pages += len(pages)
	r.sum.count(pr)
	if pr.Attempts > 1 {
		r.sum.Retried++
	}
	if a.Kind == KindHarvest {
		r.sum.Harvested++
	}
}

// finish waits for the probes under way and returns the summary.
func (r *runState) finish(ctx context.Context) (Summary, error) {
	r.wg.Wait()
	if r.recErr != nil {
		return r.sum, r.recErr
	}
	if ctx.Err() != nil {
		if r.sum.Stopped == "" {
			r.sum.Stopped = "interrupted"
		}
		return r.sum, ctx.Err()
	}
	return r.sum, nil
}

// retryable reports whether a failed attempt is worth repeating: the page could not
// count, stopped answering, or a step ran out of time. A refused request, a field the
// page lacks or a value the browser refuses fail the same way again.
func retryable(err error) bool {
	if err == nil || errors.Is(err, ErrBlocked) {
		return false
	}
	if errors.Is(err, errCapture) || errors.Is(err, ErrUnresponsive) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "changed nothing") || strings.Contains(s, "net::ERR_")
}

// runOne runs one probe (with up to MaxAttempts attempts) and builds its record. It
// returns the tab to release: a tab that broke is replaced for the next attempt.
func (p *Prober) runOne(ctx context.Context, t *tab, f Form, a Assignment, num, maxPages int, shot bool) (Probe, []Page, *tab) {
	pr := Probe{N: num, Kind: a.Kind, Assignment: a.Values, Started: time.Now().UTC()}
	if pr.Assignment == nil {
		pr.Assignment = map[string]string{}
	}
	for _, fd := range f.Fields {
		if v, ok := a.Values[fd.Name]; ok && v != "" && fillKind(fd) == "text" {
			pr.Terms = append(pr.Terms, v)
		}
	}
	p.log.Info("probe", "probe", num, "kind", a.Kind, "method", f.Method, "action", f.Action, "values", a.Values)
	var sub submission
	var err error
	for attempt := 1; ; attempt++ {
		pr.Attempts = attempt
		sub, pr.HTTP, err = p.submitVia(ctx, t, f, a.Values, maxPages, shot)
		if err == nil || !retryable(err) || attempt >= MaxAttempts || ctx.Err() != nil ||
			(errors.Is(err, errUnchanged) && attempt >= 2) {
			break
		}
		wait := p.pol.limits.script() / 3 << (attempt - 1)
		pr.Warnings = append(pr.Warnings, fmt.Sprintf("attempt %d failed, tried again after %v: %v", attempt, wait.Round(10*time.Millisecond), err))
		p.log.Warn("probe attempt failed; trying again", "probe", num, "attempt", attempt, "wait", wait, "err", err)
		if t.isBroken() {
			p.pool.release(t) // closes it
			nt, aerr := p.pool.acquire(ctx)
			if aerr != nil {
				err = fmt.Errorf("%w (and no new tab for another attempt: %v)", err, aerr)
				t = nil
				break
			}
			t = nt
		}
		sleepCtx(ctx, wait)
	}
	pr.Duration = time.Since(pr.Started)
	pr.Trigger = sub.Trigger
	pr.Navigated = sub.Navigated
	pr.Warnings = append(pr.Warnings, sub.Warnings...)
	for _, pg := range sub.Pages {
		pr.Warnings = append(pr.Warnings, pg.Warnings...)
	}
	if len(sub.Pages) > 0 {
		pr.URL = sub.Pages[0].URL
		pr.Status = sub.Pages[0].Status
	}
	pages := sub.Pages
	if errors.Is(err, errUnchanged) && ctx.Err() == nil && emptyQuery(f, a.Values) && sub.Filled == 0 {
		pr.Unanswered = fmt.Sprintf("the site does not answer an empty query: with every text box empty, %d attempts got the form page back unchanged (%v)", pr.Attempts, err)
		p.log.Info("probe unanswered", "probe", num, "why", "the form page came back unchanged for an empty query", "attempts", pr.Attempts)
		return pr, nil, t
	}
	if err != nil {
		pr.Error = err.Error()
		if ctx.Err() != nil {
			pr.Error = "interrupted: " + pr.Error
		}
		if errors.Is(err, errCapture) {
			pages = nil // a page that cannot count is not kept
		}
		p.log.Warn("probe failed", "probe", num, "attempts", pr.Attempts, "err", pr.Error)
	} else {
		p.log.Info("probe done", "probe", num, "pages", len(sub.Pages), "url", pr.URL, "status", pr.Status, "attempts", pr.Attempts, "elapsed", pr.Duration.Round(time.Millisecond))
	}
	return pr, pages, t
}

// emptyQuery reports whether f has text boxes and a submission of values leaves every
// one of them empty (fields not in values keep their defaults). A form without a text
// box has no empty query: its unchanged form page stays a failure. The page is asked
// too (submission.Filled): a site may fill a box itself, with a query it kept.
func emptyQuery(f Form, values map[string]string) bool {
	boxes := 0
	for _, fd := range f.Fields {
		if fd.Submit || fd.Disabled || fillKind(fd) != "text" {
			continue
		}
		boxes++
		v, ok := values[fd.Name]
		if !ok {
			v = fd.Value
		}
		if strings.TrimSpace(v) != "" {
			return false
		}
	}
	return boxes > 0
}

// count counts a recorded probe among the failed or unanswered ones.
func (s *Summary) count(pr Probe) {
	switch {
	case pr.Error != "":
		s.Failed++
	case pr.Unanswered != "":
		s.Unanswered++
	}
}

// Language returns the language trawl assumes for the form's text ("en", "fr", …), from
// stop-word counts; the agnostic plan takes its stop words from it.
func Language(f Form) string { return detectLang(f) }
