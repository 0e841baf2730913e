package probe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// Version is the trawl version sent in the User-Agent.
const Version = "0.1"

// UserAgentToken is the product token trawl sends in its User-Agent and matches in
// robots.txt groups.
const UserAgentToken = "trawl"

// ErrNoChromium is returned by Start when no Chromium binary can be found.
var ErrNoChromium = errors.New("probe: chromium not found (install it with: apt-get update && apt-get install -y chromium; or set TRAWL_CHROME to the browser binary)")

// Options configures the browser, the prober and its politeness. Start from
// DefaultOptions and override fields.
type Options struct {
	// ChromePath is the Chromium (or Chrome) binary. Empty: $TRAWL_CHROME, then
	// /usr/bin/chromium, then chromium, chromium-browser or google-chrome on $PATH.
	ChromePath string
	// Tabs is the number of browser tabs that probe in parallel.
	Tabs int
	// StepTimeout bounds one browser step: opening a page, one submission with its
	// wait for the result, following one "next" link, reading one page.
	StepTimeout time.Duration
	// SettleTimeout bounds the wait for a page to settle (no DOM change for Quiet, no
	// script request in flight) once it started to change. A page that never settles is
	// taken as it is after this time, with a warning. It is cut to three quarters of
	// StepTimeout (so that a short StepTimeout alone bounds a step) and grows with the
	// browser's measured answer time on a busy machine, within that bound.
	SettleTimeout time.Duration
	// Quiet is how long the DOM must stay unchanged (with no fetch/XHR in flight) for a
	// page to count as settled, once its scripts made requests; a page whose scripts
	// made none needs a third of it.
	Quiet time.Duration
	// Delay is the least time between the answer to one request of trawl to a host
	// and its next request there (documents, the page's script requests, the
	// browser's own, HTTP fetches and robots.txt; not the scripts and styles a page
	// loads with it). With a delay, a browser sends one such request at a time to a
	// host, whatever the number of tabs and probers. robots.txt Crawl-delay raises it.
	Delay time.Duration
	// MaxProbes caps the submissions of a run; MaxPages caps the result pages kept per
	// run; MaxPagesPerProbe caps the pages of one probe (the first result page and the
	// pages reached by following "next" links).
	MaxProbes        int
	MaxPages         int
	MaxPagesPerProbe int
	// Harvest spends the last third of MaxProbes on words taken from the result pages
	// (KindHarvest), for coverage, before the rest of the plan.
	Harvest bool
	// MaxPageBytes refuses result pages larger than this (by Content-Length, or by the
	// size of the DOM when the length is not announced).
	MaxPageBytes int64
	// IgnoreRobots skips robots.txt (for one's own sites only).
	IgnoreRobots bool
	// AllowPOST allows submitting search forms that use POST (POST often has side
	// effects, so it is off by default).
	AllowPOST bool
	// ForceForm names a form to probe even if it is not classified as a search form:
	// its index among the page's forms ("0", "1", …), its id, its name or its XPath.
	ForceForm string
	// Screenshots keeps a PNG of the form and of the first page of the first content
	// probe.
	Screenshots bool
	// LoadImages loads images. Off by default: records are read from the DOM (an
	// <img> keeps its src), and a page waits for its images before it is complete
	// (a calibre result page has 25 thumbnails).
	LoadImages bool
	// UserAgent replaces the browser's User-Agent. Empty: Chromium's own, with
	// " trawl/<version>" appended so that sites can tell who is probing.
	UserAgent string
	// HTTPCompare, when set, lets a run fetch the result pages of a GET form with
	// plain HTTP once the first probes' pages proved equal to the browser's by the
	// comparison it returns (one per Prober, see PageComparer); nil: every page comes
	// from the browser.
	HTTPCompare func() PageComparer `json:"-"`
	// Logger receives progress and diagnostics. Nil discards them.
	Logger *slog.Logger
}

// DefaultOptions returns polite defaults for probing someone else's site.
func DefaultOptions() Options {
	return Options{
		Tabs:             2,
		StepTimeout:      20 * time.Second,
		SettleTimeout:    5 * time.Second,
		Quiet:            150 * time.Millisecond,
		Delay:            time.Second,
		MaxProbes:        40,
		MaxPages:         200,
		MaxPagesPerProbe: 3,
		Harvest:          true,
		MaxPageBytes:     10 << 20,
		Screenshots:      true,
	}
}

// Validate reports the first invalid field.
func (o Options) Validate() error {
	switch {
	case o.Tabs < 1 || o.Tabs > 32:
		return fmt.Errorf("probe: Tabs must be in [1,32], got %d", o.Tabs)
	case o.StepTimeout < 100*time.Millisecond:
		return fmt.Errorf("probe: StepTimeout must be ≥ 100ms, got %v", o.StepTimeout)
	case o.SettleTimeout <= 0:
		return fmt.Errorf("probe: SettleTimeout must be > 0, got %v", o.SettleTimeout)
	case o.Quiet < 0 || o.Quiet >= min(o.SettleTimeout, o.StepTimeout*3/4):
		return fmt.Errorf("probe: Quiet must be in [0, min(SettleTimeout, StepTimeout×3/4)=%v), got %v", min(o.SettleTimeout, o.StepTimeout*3/4), o.Quiet)
	case o.Delay < 0:
		return fmt.Errorf("probe: Delay must be ≥ 0, got %v", o.Delay)
	case o.MaxProbes < 1:
		return fmt.Errorf("probe: MaxProbes must be ≥ 1, got %d", o.MaxProbes)
	case o.MaxPages < 1:
		return fmt.Errorf("probe: MaxPages must be ≥ 1, got %d", o.MaxPages)
	case o.MaxPagesPerProbe < 1:
		return fmt.Errorf("probe: MaxPagesPerProbe must be ≥ 1, got %d", o.MaxPagesPerProbe)
	case o.MaxPageBytes < 1<<10:
		return fmt.Errorf("probe: MaxPageBytes must be ≥ 1 KiB, got %d", o.MaxPageBytes)
	}
	return nil
}

func (o Options) logger() *slog.Logger {
	if o.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return o.Logger
}

// FindChrome returns the browser binary Options.ChromePath designates, or
// ErrNoChromium.
func FindChrome(path string) (string, error) {
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			return "", fmt.Errorf("%w: %s: %v", ErrNoChromium, path, err)
		}
		return path, nil
	}
	if env := os.Getenv("TRAWL_CHROME"); env != "" {
		if _, err := os.Stat(env); err != nil {
			return "", fmt.Errorf("%w: TRAWL_CHROME=%s: %v", ErrNoChromium, env, err)
		}
		return env, nil
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium", nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

// Browser is one headless Chromium process. It is safe for concurrent use; each tab
// is used by one goroutine at a time. Close it when done: Close kills Chromium and
// removes its temporary profile. It is also closed when the context given to Start
// ends (Ctrl-C).
type Browser struct {
	opts        Options
	log         *slog.Logger
	ctx         context.Context // the browser's root context (no deadline)
	cancel      context.CancelFunc
	allocCancel context.CancelFunc
	stopAfter   func() bool
	ua          string
	closeOnce   sync.Once
	closed      chan struct{}
	dataDir     string // the profile directory, removed by Close
	// lim spaces the requests to each host of every tab and prober of the browser, and
	// of their HTTP fetches (Options.Delay, robots.txt's Crawl-delay).
	lim *limiter
}

// startTimeout bounds the start of Chromium and the opening of a tab.
const startTimeout = 30 * time.Second

// Start launches headless Chromium with a fresh profile, no sandbox (trawl runs as
// root in containers), and background networking, component updates and sync turned
// off. ctx bounds the browser's life: when it ends, the browser is closed.
func Start(ctx context.Context, opts Options) (*Browser, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	bin, err := FindChrome(opts.ChromePath)
	if err != nil {
		return nil, err
	}
	log := opts.logger()
	// A fresh profile per browser, removed by Close. trawl creates it (instead of
	// chromedp) so that Close can also find and kill any process left running with it.
	dataDir, err := os.MkdirTemp("", "trawl-chromium-")
	if err != nil {
		return nil, fmt.Errorf("probe: create the browser profile directory: %w", err)
	}
	flags := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.UserDataDir(dataDir),
		chromedp.NoSandbox,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("mute-audio", true),
		chromedp.WindowSize(1280, 1024),
		// chromedp's two plus what a page-after-page reader does not need: keeping the
		// page left in the back/forward cache, a new browsing instance or frame host per
		// navigation. Without them, four tabs read ~10–20 % more pages per second
		// (docs/decisions/2026-11-22-probe-settle-in-page.md).
		chromedp.Flag("disable-features", "Translate,BlinkGenPropertyTrees,BackForwardCache,ProactivelySwapBrowsingInstance,RenderDocument,ProcessPerSiteUpToMainFrameThreshold"),
	)
	if !opts.LoadImages {
		flags = append(flags, chromedp.Flag("blink-settings", "imagesEnabled=false"))
	}
	// The allocator's context is not the caller's: the browser must outlive a
	// cancelled step and is ended by Close only (which AfterFunc calls on ctx's end).
	allocCtx, allocCancel := chromedp.NewExecAllocator(context.WithoutCancel(ctx), flags...)
	b, err := attach(ctx, allocCtx, allocCancel, opts, log, dataDir, "start "+bin)
	if err != nil {
		return nil, err
	}
	log.Info("browser started", "path", bin, "user_agent", b.ua)
	return b, nil
}

// attach makes the Browser of an allocator (a started or a remote Chromium): the
// connection, the stop on ctx's end and the User-Agent. what names the step in errors
// ("start /usr/bin/chromium", "connect to the browser at …"). On an error the
// Browser is closed.
func attach(ctx, allocCtx context.Context, allocCancel context.CancelFunc, opts Options, log *slog.Logger, dataDir, what string) (*Browser, error) {
	bctx, cancel := chromedp.NewContext(allocCtx,
		chromedp.WithLogf(func(f string, a ...any) { log.Debug("chromium: " + fmt.Sprintf(f, a...)) }),
		chromedp.WithErrorf(func(f string, a ...any) { log.Debug("chromium error: " + fmt.Sprintf(f, a...)) }),
	)
	b := &Browser{opts: opts, log: log, ctx: bctx, cancel: cancel, allocCancel: allocCancel, closed: make(chan struct{}), dataDir: dataDir, lim: newLimiter()}
	if err := within(ctx, startTimeout, func() error { return chromedp.Do(bctx) }); err != nil {
		b.Close()
		return nil, fmt.Errorf("probe: %s: %w", what, err)
	}
	b.stopAfter = context.AfterFunc(ctx, b.Close)
	b.ua = opts.UserAgent
	if b.ua == "" {
		v, err := chromedp.CallBrowser(bctx, browser.GetVersion, cdp.Empty{})
		if err != nil {
			b.Close()
			return nil, fmt.Errorf("probe: %s: read the browser version: %w", what, err)
		}
		b.ua = v.UserAgent + " " + UserAgentToken + "/" + Version
	}
	return b, nil
}

// UserAgent returns the User-Agent the browser sends.
func (b *Browser) UserAgent() string { return b.ua }

// Close kills Chromium and waits for it to exit. It is safe to call more than once
// and from several goroutines.
func (b *Browser) Close() {
	b.closeOnce.Do(func() {
		if b.stopAfter != nil {
			b.stopAfter()
		}
		b.cancel()      // closes the tabs and the browser connection
		b.allocCancel() // kills the browser and waits for it
		// Helpers (zygote, renderers) die with the browser; make sure, then remove
		// the profile.
		deadline := time.Now().Add(3 * time.Second)
		for pids := b.leftovers(); len(pids) > 0; pids = b.leftovers() {
			if time.Now().After(deadline) {
				for _, pid := range pids {
					_ = syscall.Kill(pid, syscall.SIGKILL) // it may have exited meanwhile
				}
				deadline = time.Now().Add(2 * time.Second)
			}
			time.Sleep(50 * time.Millisecond)
		}
		if err := os.RemoveAll(b.dataDir); err != nil {
			b.log.Warn("remove the browser profile", "dir", b.dataDir, "err", err)
		}
		close(b.closed)
		b.log.Info("browser closed")
	})
}

// leftovers returns the processes still running with this browser's profile (none
// after Close).
func (b *Browser) leftovers() []int {
	if b.dataDir == "" {
		return nil // a remote browser (Connect): not this process's to kill
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil // not Linux: chromedp's own clean-up applies
	}
	want := []byte("--user-data-dir=" + b.dataDir)
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		if bytes.Contains(cmd, want) {
			if st, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil && isZombie(st) {
				continue
			}
			pids = append(pids, pid)
		}
	}
	return pids
}

// isZombie reports whether a /proc/<pid>/stat line is of a zombie (state Z), which
// only waits for its parent to reap it.
func isZombie(stat []byte) bool {
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

// isClosed reports whether Close was called.
func (b *Browser) isClosed() bool {
	select {
	case <-b.closed:
		return true
	default:
		return false
	}
}

// within runs f, which binds a chromedp context's life to a context without deadline
// (the first Do on it), but gives up after d or when ctx ends. On giving up it returns
// without waiting for f; the caller cancels the chromedp context, which ends f.
func within(ctx context.Context, d time.Duration, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		return fmt.Errorf("no answer within %v", d)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// RenderOptions configures RenderPage.
type RenderOptions = Options

// RenderPage opens url in a fresh headless Chromium, waits until the page settled (its
// scripts ran), and returns the DOM serialised as HTML with the final URL (after
// redirects). It starts and closes a browser: use a Prober to render many pages. Only
// http and https URLs are accepted; robots.txt is honoured unless opts.IgnoreRobots.
func RenderPage(ctx context.Context, url string, opts RenderOptions) (html string, finalURL string, err error) {
	if _, err := checkURL(url); err != nil {
		return "", "", err
	}
	opts.Tabs = 1
	b, err := Start(ctx, opts)
	if err != nil {
		return "", "", err
	}
	defer b.Close()
	p, err := NewProber(b, opts)
	if err != nil {
		return "", "", err
	}
	defer p.Close()
	pg, err := p.Open(ctx, url)
	if err != nil {
		return "", "", err
	}
	for _, w := range pg.Warnings {
		opts.logger().Warn("render: "+w, "url", url)
	}
	return pg.HTML, pg.URL, nil
}

// trimErr shortens browser error texts for messages.
func trimErr(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
