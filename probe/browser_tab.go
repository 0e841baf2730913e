package probe

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"
)

// ErrUnresponsive marks a page that did not answer a script within the page-script
// limit (see limits): a script keeps its main thread busy (an endless loop), it is too
// large to handle, or the machine is too busy. trawl closes its tab.
var ErrUnresponsive = errors.New("the page does not respond (a script keeps it busy, it is too large to handle, or the machine is too busy)")

// errCapture marks a result page that cannot count: empty, head-only, without an HTTP
// status, or the form page unchanged. Such a probe is retried.
var errCapture = errors.New("the captured page cannot count")

// errUnchanged marks a result page with the same text as the form page before the
// submission (it wraps errCapture).
var errUnchanged = fmt.Errorf("%w: the form page is unchanged", errCapture)

// ErrBlocked marks a navigation trawl refused: another origin, a non-HTTP(S) URL, a
// path robots.txt disallows, or a page over the size limit.
var ErrBlocked = errors.New("request refused")

// limits are a prober's time limits besides Options.StepTimeout: how long a small
// script in the page may take before the page counts as unresponsive (the page-script
// limit), and how long a submission may show no effect at all. Both derive from the
// step timeout (a sixth of it, between 1 s and 10 s: 3.3 s for the default 20 s) and
// grow with the browser's measured answer time, so that a machine slowed down by other
// work does not make sound pages look stuck: the limit is at least 40 times the
// moving average of a small evaluation's round trip, and at most half a step.
//
// The settle limit (how long a page that keeps changing is waited for) is
// Options.SettleTimeout cut to three quarters of a step, and at least 20 times the same
// average within that bound.
type limits struct {
	step, settleOpt time.Duration
	rtt             atomic.Int64 // exponential moving average of a small evaluation's round trip, ns
}

func newLimits(step, settle time.Duration) *limits {
	return &limits{step: step, settleOpt: settle}
}

// settle returns the settle limit now.
func (l *limits) settle() time.Duration {
	bound := l.step * 3 / 4
	return min(max(min(l.settleOpt, bound), 20*time.Duration(l.rtt.Load())), bound)
}

// script returns the page-script limit now.
func (l *limits) script() time.Duration {
	base := min(max(l.step/6, time.Second), 10*time.Second)
	adapted := 40 * time.Duration(l.rtt.Load())
	return min(max(base, adapted), max(l.step/2, base))
}

// observe feeds one round trip of a small evaluation into the moving average.
func (l *limits) observe(d time.Duration) {
	for {
		old := l.rtt.Load()
		next := int64(d)
		if old != 0 {
			next = old + (int64(d)-old)/5
		}
		if l.rtt.CompareAndSwap(old, next) {
			return
		}
	}
}

// reserve returns how much of a step a page that keeps changing leaves for reading it:
// a quarter of the step, and at least 10 times the average answer time within half a
// step.
func (l *limits) reserve() time.Duration {
	return min(max(l.step/4, 10*time.Duration(l.rtt.Load())), l.step/2)
}

// stepEnding reports whether ctx ends within d.
func stepEnding(ctx context.Context, d time.Duration) bool {
	dl, ok := ctx.Deadline()
	return ok && time.Until(dl) < d
}

// describe explains the page-script limit in messages.
func (l *limits) describe() string {
	lim := l.script()
	rtt := time.Duration(l.rtt.Load()).Round(time.Millisecond)
	if lim > min(max(l.step/6, time.Second), 10*time.Second) {
		return fmt.Sprintf("the page-script limit %v (a sixth of the step timeout %v, raised for the browser's %v average answer time: the machine is busy)", lim.Round(10*time.Millisecond), l.step, rtt)
	}
	return fmt.Sprintf("the page-script limit %v (a sixth of the step timeout %v)", lim.Round(10*time.Millisecond), l.step)
}

// policy is what a tab may load: it is checked for every main-frame document request,
// and the delay applies to those and to the page's fetch/XHR requests.
type policy struct {
	opts     Options      // the prober's options (timeouts, settle times)
	limits   *limits      // the page-script limit, adapted to the machine
	robots   *robotsCache // nil: robots.txt ignored
	lim      *limiter
	delay    time.Duration
	maxBytes int64
}

// docResponse is the last main-frame document response of a tab.
type docResponse struct {
	URL    string
	Status int
	Err    string // network error text
}

// tab is one browser tab. It is used by one goroutine at a time (the pool hands it
// out); its event handlers run on chromedp's goroutines and share state under mu.
type tab struct {
	b      *Browser
	ctx    context.Context // no deadline; steps derive their own
	cancel context.CancelFunc
	frame  cdp.FrameID
	pol    *policy
	log    *slog.Logger

	mu         sync.Mutex
	origin     string // allowed origin of main-frame documents; "" = any http(s)
	docSeq     int    // main-frame document requests let through so far
	respSeq    int    // main-frame document responses (or failures) seen so far
	pendingURL string // the URL of the last main-frame document request
	resp       docResponse
	blocked    string   // why the last refused main-frame request was refused
	dialogs    []string // dialogs closed through the protocol
	mainReqs   map[network.RequestID]string
	broken     bool
	docHeaders map[string]any // request headers of the last main-frame document
	// unanswered holds the turns at the limiter of the requests sent and not yet
	// answered, by network request ID (see answer).
	unanswered map[network.RequestID]func()
}

// newTab opens a tab with trawl's instrumentation: request interception (origin,
// robots.txt, delay, size), the settle hooks, dialog handling, the User-Agent. Each
// tab has a browser context of its own (an incognito profile: its own cookie jar and
// storage), so that clearing one tab's cookies before a probe (forget) cannot take
// the session of a probe running in another tab.
func (b *Browser) newTab(pol *policy) (*tab, error) {
	if b.isClosed() {
		return nil, errors.New("probe: the browser is closed")
	}
	tctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	t := &tab{b: b, ctx: tctx, cancel: cancel, pol: pol, log: b.log}
	if err := within(b.ctx, startTimeout, func() error { return chromedp.Do(tctx) }); err != nil {
		cancel()
		return nil, fmt.Errorf("probe: open a tab: %w", err)
	}
	t.frame = cdp.FrameID(chromedp.FromContext(tctx).Target.TargetID)
	if err := chromedp.Listen(tctx, t.onEvent); err != nil {
		cancel()
		return nil, fmt.Errorf("probe: listen to the tab: %w", err)
	}
	setup := func(ctx context.Context) error {
		if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{
			{URLPattern: "*", ResourceType: network.ResourceTypeDocument, RequestStage: fetch.RequestStageRequest},
			{URLPattern: "*", ResourceType: network.ResourceTypeDocument, RequestStage: fetch.RequestStageResponse},
			{URLPattern: "*", ResourceType: network.ResourceTypeXHR, RequestStage: fetch.RequestStageRequest},
			{URLPattern: "*", ResourceType: network.ResourceTypeFetch, RequestStage: fetch.RequestStageRequest},
			{URLPattern: "*", ResourceType: network.ResourceTypeOther, RequestStage: fetch.RequestStageRequest},
			{URLPattern: "*", ResourceType: network.ResourceTypePing, RequestStage: fetch.RequestStageRequest},
			{URLPattern: "*", ResourceType: network.ResourceTypeEventSource, RequestStage: fetch.RequestStageRequest},
		}}); err != nil {
			return fmt.Errorf("enable request interception: %w", err)
		}
		if _, err := chromedp.Call(ctx, runtime.AddBinding, runtime.AddBindingParams{Name: dialogBinding}); err != nil {
			return fmt.Errorf("add the dialog binding: %w", err)
		}
		if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: initJS}); err != nil {
			return fmt.Errorf("add the page hooks: %w", err)
		}
		if _, err := chromedp.Call(ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: b.ua}); err != nil {
			return fmt.Errorf("set the user agent: %w", err)
		}
		// trawl reads pages by script and acts through input events, never through
		// chromedp's node queries: the DOM and CSS domains (which chromedp enables to
		// mirror the node tree and the style sheets) only cost events.
		if _, err := chromedp.Call(ctx, css.Disable, cdp.Empty{}); err != nil {
			return fmt.Errorf("disable the CSS domain: %w", err)
		}
		if _, err := chromedp.Call(ctx, dom.Disable, cdp.Empty{}); err != nil {
			return fmt.Errorf("disable the DOM domain: %w", err)
		}
		return nil
	}
	if err := t.step(10*time.Second, setup); err != nil {
		cancel()
		return nil, fmt.Errorf("probe: set up a tab: %w", err)
	}
	return t, nil
}

// forgetTypes are the kinds of site storage forget clears: all that a page can keep
// between visits (the HTTP cache is not site state and is kept).
const forgetTypes = "cookies,local_storage,indexeddb,cache_storage,service_workers,file_systems,websql,storage_buckets"

// forget clears what the sites left in the tab's browser context: its cookies, and
// the storage of origin (local storage, IndexedDB, caches, service workers). A probe
// calls it before it loads the form page, so that it starts as a first visit (the
// page sends fresh session cookies and CSRF tokens) and does not see what an earlier
// probe in the same tab left: a site that keeps the last query in a cookie (Fossil's
// display cookie) would show it in the form and answer the next probe with it.
func (t *tab) forget(ctx context.Context, origin string) error {
	if _, err := chromedp.Call(ctx, network.ClearBrowserCookies, cdp.Empty{}); err != nil {
		return fmt.Errorf("clear the tab's cookies: %w", err)
	}
	if origin == "" {
		return nil
	}
	if _, err := chromedp.Call(ctx, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: origin, StorageTypes: forgetTypes}); err != nil {
		return fmt.Errorf("clear the storage of %s: %w", origin, err)
	}
	return nil
}

// close closes the tab and gives back the turns its unanswered requests held.
func (t *tab) close() {
	t.cancel()
	t.mu.Lock()
	held := t.unanswered
	t.unanswered = nil
	t.mu.Unlock()
	for _, done := range held {
		done()
	}
}

// hold keeps a request's turn at the limiter until answer is called for its network
// ID (its response headers came, it failed, or it was redirected), or at the latest
// for the step timeout. A request without a network ID gives its turn back at once.
func (t *tab) hold(id network.RequestID, done func()) {
	if id == "" {
		done()
		return
	}
	t.mu.Lock()
	if t.unanswered == nil {
		t.unanswered = map[network.RequestID]func(){}
	}
	t.unanswered[id] = done
	t.mu.Unlock()
	time.AfterFunc(t.pol.opts.StepTimeout, func() { t.answer(id) })
}

// answer gives back the turn a request held (hold). It may run on the event loop.
func (t *tab) answer(id network.RequestID) {
	t.mu.Lock()
	done := t.unanswered[id]
	delete(t.unanswered, id)
	t.mu.Unlock()
	if done != nil {
		done()
	}
}

// step runs f with a deadline derived from the tab's context.
func (t *tab) step(d time.Duration, f func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(t.ctx, d)
	defer cancel()
	return f(ctx)
}

// stepCtx returns a context for one step in this tab: chromedp's tab context with a
// deadline d, also cancelled when the caller's ctx ends.
func (t *tab) stepCtx(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	sctx, cancel := context.WithTimeout(t.ctx, d)
	stop := context.AfterFunc(ctx, cancel)
	return sctx, func() { stop(); cancel() }
}

// setOrigin restricts main-frame documents to one origin ("" = any http(s) origin).
func (t *tab) setOrigin(o string) {
	t.mu.Lock()
	t.origin = o
	t.mu.Unlock()
}

// onEvent runs on the tab's event loop: it must return at once and send no command.
func (t *tab) onEvent(ev any) {
	switch ev := ev.(type) {
	case *fetch.EventRequestPaused:
		go t.onPaused(ev)
	case *network.EventRequestWillBeSent:
		if ev.RedirectResponse != nil {
			t.answer(ev.RequestID) // the request before the redirect was answered
		}
		if ev.Type == network.ResourceTypeDocument && ev.FrameID == t.frame && ev.Request != nil {
			t.mu.Lock()
			if t.mainReqs == nil || len(t.mainReqs) > 1000 {
				t.mainReqs = map[network.RequestID]string{}
			}
			t.mainReqs[ev.RequestID] = ev.Request.URL
			t.mu.Unlock()
		}
	case *network.EventLoadingFinished:
		t.answer(ev.RequestID)
	case *network.EventResponseReceived:
		t.answer(ev.RequestID)
		// The response stage of the interception gives the status first; this covers
		// documents it did not pause (served from the cache, or a race at start-up).
		if ev.Type == network.ResourceTypeDocument && ev.FrameID == t.frame && ev.Response != nil {
			t.mu.Lock()
			if t.resp.Status == 0 || t.resp.URL != ev.Response.URL {
				t.resp = docResponse{URL: ev.Response.URL, Status: int(ev.Response.Status)}
			}
			t.mu.Unlock()
		}
	case *network.EventLoadingFailed:
		t.answer(ev.RequestID)
		t.mu.Lock()
		if u, ok := t.mainReqs[ev.RequestID]; ok && !ev.Canceled {
			t.resp = docResponse{URL: u, Status: t.resp.Status, Err: ev.ErrorText}
			t.respSeq = t.docSeq
		}
		t.mu.Unlock()
	case *runtime.EventBindingCalled:
		// initJS's alert/confirm/prompt: the text arrives before any navigation the
		// page starts after the dialog.
		if ev.Name == dialogBinding {
			t.mu.Lock()
			t.dialogs = append(t.dialogs, trimErr(ev.Payload))
			t.mu.Unlock()
		}
	case *cdppage.EventJavascriptDialogOpening:
		// initJS replaces alert/confirm/prompt; this catches the rest (beforeunload).
		t.mu.Lock()
		t.dialogs = append(t.dialogs, string(ev.Type)+": "+trimErr(ev.Message))
		t.mu.Unlock()
		go func() {
			ctx, cancel := context.WithTimeout(t.ctx, 5*time.Second)
			defer cancel()
			_, err := chromedp.Call(ctx, cdppage.HandleJavaScriptDialog, cdppage.HandleJavaScriptDialogParams{Accept: ev.Type != cdppage.DialogTypeConfirm})
			if err != nil {
				t.log.Debug("close dialog", "err", err)
			}
		}()
	}
}

// onPaused decides about one intercepted request (in its own goroutine).
func (t *tab) onPaused(ev *fetch.EventRequestPaused) {
	ctx, cancel := context.WithTimeout(t.ctx, 2*time.Minute)
	defer cancel()
	main := ev.ResourceType == network.ResourceTypeDocument && ev.FrameID == t.frame
	cont := func() {
		if _, err := chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID}); err != nil {
			t.answer(ev.NetworkID) // not sent: nothing to wait for
			if ctx.Err() == nil {
				t.log.Debug("continue request", "url", ev.Request.URL, "err", err)
			}
		}
	}
	fail := func(reason string) {
		t.log.Warn("request refused", "url", ev.Request.URL, "reason", reason)
		if main {
			t.mu.Lock()
			t.blocked = reason
			t.respSeq = t.docSeq
			t.mu.Unlock()
		}
		if _, err := chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient}); err != nil && ctx.Err() == nil {
			t.log.Debug("fail request", "url", ev.Request.URL, "err", err)
		}
	}
	if ev.ResponseStatusCode != 0 || ev.ResponseErrorReason != "" { // response stage
		t.answer(ev.NetworkID)
		if main {
			t.mu.Lock()
			t.resp = docResponse{URL: ev.Request.URL, Status: int(ev.ResponseStatusCode), Err: string(ev.ResponseErrorReason)}
			t.respSeq = t.docSeq
			t.mu.Unlock()
			if n := contentLength(ev.ResponseHeaders); n > t.pol.maxBytes {
				fail(fmt.Sprintf("%s is %d bytes, over the limit of %d (MaxPageBytes)", ev.Request.URL, n, t.pol.maxBytes))
				return
			}
		}
		cont()
		return
	}
	u, err := url.Parse(ev.Request.URL)
	if err != nil {
		fail(fmt.Sprintf("bad URL %q: %v", ev.Request.URL, err))
		return
	}
	if main {
		// Counted before the checks and the politeness delay: the settle wait must see
		// at once that a new document is on its way (a refused one ends the wait too).
		t.mu.Lock()
		t.docSeq++
		t.docHeaders = ev.Request.Headers
		t.pendingURL = ev.Request.URL
		t.mu.Unlock()
	}
	if ev.ResourceType == network.ResourceTypeDocument {
		if u.Scheme != "http" && u.Scheme != "https" {
			fail(fmt.Sprintf("%s: only http and https URLs are fetched", ev.Request.URL))
			return
		}
		if main {
			t.mu.Lock()
			origin := t.origin
			t.mu.Unlock()
			if origin != "" && originOf(u) != origin {
				fail(fmt.Sprintf("%s is outside the form's origin %s", ev.Request.URL, origin))
				return
			}
			if t.pol.robots != nil {
				if ok, rule := t.pol.robots.get(ctx, u).Allowed(u); !ok {
					fail(fmt.Sprintf("robots.txt of %s disallows %s (%s)", originOf(u), u.RequestURI(), rule))
					return
				}
			}
		}
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		cont() // not a request to a site
		return
	}
	// Documents of every frame, the scripts' fetches, beacons, event streams and the
	// browser's own requests (the favicon) wait their turn at the limiter and hold it
	// until they are answered: the site sees them the delay apart. The subresources a
	// document needs to render (scripts, styles, fonts; images when LoadImages) load
	// with it.
	d := t.pol.delay
	if t.pol.robots != nil {
		d = max(d, t.pol.robots.get(ctx, u).CrawlDelay)
	}
	t.answer(ev.NetworkID) // a redirect: the request before it was answered
	done, err := t.pol.lim.acquire(ctx, u.Host, d)
	if err != nil {
		return // the tab is closing
	}
	t.hold(ev.NetworkID, done)
	cont()
}

func contentLength(h []*fetch.HeaderEntry) int64 {
	for _, e := range h {
		if strings.EqualFold(e.Name, "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(e.Value), 10, 64)
			if err == nil {
				return n
			}
		}
	}
	return -1
}

// originOf returns scheme://host[:port] of u, lower-cased, with the default port
// dropped.
func originOf(u *url.URL) string {
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		host += ":" + port
	}
	if strings.Contains(u.Hostname(), ":") { // IPv6
		host = "[" + strings.ToLower(u.Hostname()) + "]"
		if port != "" {
			host += ":" + port
		}
	}
	return strings.ToLower(u.Scheme) + "://" + host
}

// navState is the tab's view of main-frame navigation.
func (t *tab) navState() (seq int, resp docResponse, blocked string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.docSeq, t.resp, t.blocked
}

// awaiting returns the URL of a main-frame document request still waiting for its
// response, or "". While one waits, the renderer may not answer scripts.
func (t *tab) awaiting() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.docSeq > t.respSeq {
		return t.pendingURL
	}
	return ""
}

func (t *tab) takeDialogs() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	d := t.dialogs
	t.dialogs = nil
	return d
}

// docState is what settleWaitFmt returns.
type docState struct {
	Doc       string   `json:"doc"`
	Hooked    bool     `json:"hooked"`
	Ready     string   `json:"ready"`
	Inflight  int      `json:"inflight"`
	Quiet     float64  `json:"quiet"` // ms since the last DOM change or request event
	Mutations int      `json:"mutations"`
	Requests  int      `json:"requests"`
	Dialogs   []string `json:"dialogs"`
	URL       string   `json:"url"`
	// Scriptless: the complete document has nothing that could change it later (no
	// script, frame, plug-in, meta refresh or on… attribute).
	Scriptless bool `json:"scriptless"`
	// Leaving: the marked document fired beforeunload (a navigation away started).
	Leaving bool `json:"leaving"`
}

// eval evaluates a script in the page with a short deadline. A page that does not
// answer in time (its own deadline or the step's) marks the tab broken and gives
// ErrUnresponsive; an interrupt (ctx cancelled) gives ctx's error.
func eval[T any](ctx context.Context, t *tab, expr string) (T, error) {
	start := time.Now()
	v, err := evalWithin[T](ctx, t, expr, t.pol.limits.script())
	if errors.Is(err, ErrUnresponsive) {
		t.markBroken()
		msg := t.pol.limits.describe()
		// A page without an answer is also a measure of the machine: the next
		// attempts (in a fresh tab) get a longer limit, up to half a step.
		t.pol.limits.observe(time.Since(start))
		return v, fmt.Errorf("%w: no answer within %s", err, msg)
	}
	if err == nil {
		t.pol.limits.observe(time.Since(start))
	}
	return v, err
}

// evalWithin evaluates with deadline d and returns ErrUnresponsive when the page does
// not answer in time (without marking the tab broken).
func evalWithin[T any](ctx context.Context, t *tab, expr string, d time.Duration, opts ...chromedp.EvaluateOption) (T, error) {
	ectx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	v, err := chromedp.Run(ectx, chromedp.Evaluate[T](expr, opts...))
	if err != nil && ectx.Err() != nil && !errors.Is(ctx.Err(), context.Canceled) {
		return v, ErrUnresponsive
	}
	return v, err
}

func (t *tab) markBroken() {
	t.mu.Lock()
	t.broken = true
	t.mu.Unlock()
}

// jsBody wraps a function body (helpersJS + … return …) with its format arguments into
// an expression.
func jsBody(body string, args ...any) string {
	return "(() => {" + fmt.Sprintf(body, args...) + "})()"
}

// jsJSON encodes v as a JavaScript literal.
func jsJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("probe: encode a script argument: " + err.Error()) // only our own structs
	}
	return string(b)
}

// transient reports whether an evaluation error comes from a navigation in progress
// (the execution context went away), so that the call is worth repeating.
func transient(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "Execution context was destroyed") ||
		strings.Contains(s, "Cannot find default execution context") ||
		strings.Contains(s, "Cannot find context with specified id") ||
		strings.Contains(s, "Inspected target navigated or closed") ||
		strings.Contains(s, "uniqueContextId not found")
}

// newToken returns a random document token.
func newToken() string {
	return rand.Text()
}

// settleResult says how a wait ended.
type settleResult struct {
	Navigated bool     // a new document replaced the marked one
	Changed   bool     // the document changed (new document, DOM mutation or script request)
	Warnings  []string // did not settle, dialogs
	State     docState
}

// settleWaitMax is the longest one in-page settle wait lasts before the Go side looks
// again (deadlines, pending navigations, pages that never settle).
const settleWaitMax = 250 * time.Millisecond

// waitSettled waits, after a trigger on a document marked with token (or after a
// navigation when token is ""), until the result is there and settled: a new document
// (or the same one changed in place) complete, with no fetch/XHR in flight and no DOM
// change for Quiet. seq0 is the tab's docSeq before the trigger. It gives up on a page
// that keeps changing the settle limit after its first change, with a warning, and fails
// when nothing happens at all (noChange) or the navigation failed. settleMax, when > 0,
// cuts the settle limit. A page that changed but has not settled when the step is
// about to end (less than limits.reserve left) and whose HTML is parsed is taken as it
// is, with a warning, rather than lost to the step timeout.
func (t *tab) waitSettled(ctx context.Context, token string, seq0 int, noChange, settleMax time.Duration) (settleResult, error) {
	o := t.pol.opts
	settleLimit := func() time.Duration {
		if l := t.pol.limits.settle(); settleMax <= 0 || l < settleMax {
			return l
		}
		return settleMax
	}
	start := time.Now()
	var firstChange time.Time
	var res settleResult
	var busy time.Duration // time the page did not answer, with no navigation under way
	for {
		if err := ctx.Err(); err != nil {
			return res, t.explainTimeout(err, res)
		}
		if u := t.awaiting(); u != "" {
			// The server has not answered the new document yet: do not disturb the
			// renderer, which may hold scripts until the navigation commits.
			sleepCtx(ctx, 40*time.Millisecond)
			continue
		}
		st, err := evalWithin[docState](ctx, t, fmt.Sprintf(settleWaitFmt, token, o.Quiet.Milliseconds(), settleWaitMax.Milliseconds()),
			time.Second+settleWaitMax, chromedp.EvalAwaitPromise)
		if err != nil {
			if transient(err) || errors.Is(err, chromedp.ErrJSNull) {
				sleepCtx(ctx, 50*time.Millisecond)
				continue
			}
			if errors.Is(err, ErrUnresponsive) {
				// A navigation that started meanwhile holds the page's scripts: wait
				// for its response. Otherwise the page is stuck after evalTimeout.
				if t.awaiting() != "" {
					continue
				}
				if busy += time.Second; busy < t.pol.limits.script() {
					continue
				}
				t.markBroken()
				_, resp, _ := t.navState()
				msg := t.pol.limits.describe()
				t.pol.limits.observe(busy)
				return res, fmt.Errorf("%w%s: no answer within %s", ErrUnresponsive, atURL(resp.URL), msg)
			}
			if ctx.Err() != nil {
				return res, t.explainTimeout(ctx.Err(), res)
			}
			return res, fmt.Errorf("read the page state: %w", err)
		}
		res.State = st
		res.Warnings = appendDialogs(res.Warnings, st.Dialogs)
		seq, resp, blocked := t.navState()
		navigated := token == "" || st.Doc != token
		if navigated {
			res.Navigated = true
		}
		if strings.HasPrefix(st.URL, "chrome-error:") {
			return res, t.navError(resp, blocked)
		}
		changed := navigated || st.Mutations > 0 || st.Requests > 0
		// A document request is under way, or the marked document is being left (its
		// beforeunload fired: a form submission or a link is navigating away, and the
		// request may not be out yet). A leave that no request follows within the
		// no-effect limit was cancelled (a download, a 204).
		pending := !navigated && (seq > seq0 || (st.Leaving && time.Since(start) < noChange))
		if changed && !res.Changed {
			res.Changed = true
			firstChange = time.Now()
		}
		// A document with nothing that can run cannot change after its load: no quiet
		// period. One whose scripts fetched nothing renders nothing late: a third of
		// Quiet is enough there. After script requests, the full Quiet applies.
		quiet := o.Quiet
		switch {
		case st.Scriptless:
			quiet = 0
		case st.Requests == 0:
			quiet /= 3
		}
		// A document without trawl's hooks is a passing one (the empty document of a
		// new browsing context, before the response commits): never settled.
		settled := st.Hooked && st.Ready == "complete" && st.Inflight == 0 && st.Quiet >= float64(quiet.Milliseconds())
		switch {
		case pending:
			// wait for the new document
		case settled && changed:
			res.Warnings = appendDialogs(res.Warnings, t.takeDialogs())
			return res, nil
		case !changed && time.Since(start) > noChange:
			return res, fmt.Errorf("the submission changed nothing within %v (no navigation, no DOM change, no request)", noChange.Round(10*time.Millisecond))
		case changed && time.Since(firstChange) > settleLimit():
			res.Warnings = append(res.Warnings, fmt.Sprintf("the page did not settle within the settle limit %v (readyState %s, %d script requests in flight, last DOM change %.0f ms ago); taken as it is",
				settleLimit().Round(10*time.Millisecond), st.Ready, st.Inflight, st.Quiet))
			res.Warnings = appendDialogs(res.Warnings, t.takeDialogs())
			return res, nil
		case changed && st.Hooked && st.Ready != "loading" && stepEnding(ctx, t.pol.limits.reserve()):
			// The step began long before the first change (slow typing, a slow
			// server, a busy machine): the settle limit would outlast the step, and
			// the page would be lost although it is there. Take it while the step
			// can still read it.
			left := time.Duration(0)
			if dl, ok := ctx.Deadline(); ok {
				left = time.Until(dl)
			}
			res.Warnings = append(res.Warnings, fmt.Sprintf("the page did not settle before the step timeout %v neared (%v left to read it; readyState %s, %d script requests in flight, last DOM change %.0f ms ago); taken as it is",
				t.pol.opts.StepTimeout, left.Round(10*time.Millisecond), st.Ready, st.Inflight, st.Quiet))
			res.Warnings = appendDialogs(res.Warnings, t.takeDialogs())
			return res, nil
		}
		sleepCtx(ctx, 15*time.Millisecond)
	}
}

func appendDialogs(w []string, d []string) []string {
	for _, x := range d {
		w = append(w, "dialog closed: "+x)
	}
	return w
}

// navError explains a failed main-frame navigation.
func (t *tab) navError(resp docResponse, blocked string) error {
	switch {
	case blocked != "":
		return fmt.Errorf("%w: %s", ErrBlocked, blocked)
	case resp.Err != "":
		return fmt.Errorf("loading %s failed: %s", resp.URL, resp.Err)
	}
	return errors.New("the navigation failed (the browser shows its error page)")
}

// explainTimeout turns a step deadline into a message that says what was awaited.
func (t *tab) explainTimeout(err error, res settleResult) error {
	if !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if u := t.awaiting(); u != "" {
		return fmt.Errorf("no result page within the step timeout %v: the server did not answer %s: %w", t.pol.opts.StepTimeout, u, err)
	}
	return fmt.Errorf("the page did not finish within the step timeout %v (readyState %q): %w", t.pol.opts.StepTimeout, res.State.Ready, err)
}

func atURL(u string) string {
	if u == "" {
		return ""
	}
	return " (" + u + ")"
}

func sleepCtx(ctx context.Context, d time.Duration) {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
	case <-ctx.Done():
	}
}

// navigate loads u in the tab and waits until it settled.
func (t *tab) navigate(ctx context.Context, u string) (settleResult, error) {
	seq0, _, _ := t.navState()
	t.mu.Lock()
	t.blocked = ""
	t.resp = docResponse{}
	t.mu.Unlock()
	res, err := chromedp.Call(ctx, cdppage.Navigate, cdppage.NavigateParams{URL: u})
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return settleResult{}, fmt.Errorf("open %s: no answer within the step timeout %v: %w", u, t.pol.opts.StepTimeout, ctx.Err())
		}
		if ctx.Err() != nil {
			return settleResult{}, fmt.Errorf("open %s: interrupted: %w", u, ctx.Err())
		}
		return settleResult{}, fmt.Errorf("open %s: %w", u, err)
	}
	if res.ErrorText != "" {
		_, resp, blocked := t.navState()
		if blocked != "" {
			return settleResult{}, fmt.Errorf("open %s: %w: %s", u, ErrBlocked, blocked)
		}
		if resp.Err != "" && resp.Err != res.ErrorText {
			return settleResult{}, fmt.Errorf("open %s: %s (%s)", u, res.ErrorText, resp.Err)
		}
		return settleResult{}, fmt.Errorf("open %s: %s", u, res.ErrorText)
	}
	sr, err := t.waitSettled(ctx, "", seq0, 0, 0)
	if err != nil {
		return sr, fmt.Errorf("open %s: %w", u, err)
	}
	return sr, nil
}

// captured is what captureFmt returns.
type captured struct {
	URL     string   `json:"url"`
	Size    int64    `json:"size"` // characters of the serialised DOM
	HTML    string   `json:"html"` // empty when Size is over the limit
	Dialogs []string `json:"dialogs"`
	// Body counts the elements in <body>; Text the characters of its rendered text;
	// Sig is a hash of that text (pageSigJS), to tell the form page unchanged.
	Body int    `json:"body"`
	Text int    `json:"text"`
	Sig  string `json:"sig"`
}

// capture reads the current document: its HTML (refused over MaxPageBytes), URL and,
// for a navigated document, the HTTP status. One evaluation serialises and returns
// it; its deadline grows with the largest page allowed, since moving a page of
// MaxPageBytes through the DevTools protocol takes time.
func (t *tab) capture(ctx context.Context, navigated bool) (Page, error) {
	p, _, err := t.captureChecked(ctx, navigated, "")
	return p, err
}

// captureChecked is capture with the checks that make a captured page count as a
// result page: a body with content, an HTTP status for a new document, and a text
// other than formSig's (the form page before the submission; "" skips that check).
// It returns the page with an error wrapping errCapture when a check fails, and the
// page's text signature.
func (t *tab) captureChecked(ctx context.Context, navigated bool, formSig string) (Page, string, error) {
	script := t.pol.limits.script()
	cctx, cancel := context.WithTimeout(ctx, script+time.Duration(t.pol.maxBytes/1000)*time.Millisecond)
	defer cancel()
	c, err := chromedp.Run(cctx, chromedp.Evaluate[captured](fmt.Sprintf(captureFmt, t.pol.maxBytes)))
	if err != nil {
		_, resp, _ := t.navState()
		if cctx.Err() != nil && !errors.Is(ctx.Err(), context.Canceled) {
			t.markBroken()
			return Page{}, "", fmt.Errorf("read the page%s: %w: no answer within %s", atURL(resp.URL), ErrUnresponsive, t.pol.limits.describe())
		}
		return Page{}, "", fmt.Errorf("read the page%s: %w", atURL(resp.URL), err)
	}
	if c.Size > t.pol.maxBytes {
		return Page{}, "", fmt.Errorf("%w: the page %s has %d characters, over the limit of %d (MaxPageBytes)", ErrBlocked, c.URL, c.Size, t.pol.maxBytes)
	}
	p := Page{URL: c.URL, HTML: c.HTML, Navigated: navigated}
	if navigated {
		// The status comes with the response events, which may trail the new
		// document's scripts a little.
		for wait := time.Now(); ; {
			_, resp, _ := t.navState()
			p.Status = resp.Status
			if p.Status != 0 || time.Since(wait) > script/3 || ctx.Err() != nil {
				break
			}
			sleepCtx(ctx, 20*time.Millisecond)
		}
	}
	p.Warnings = appendDialogs(nil, c.Dialogs)
	switch {
	case c.HTML == "":
		return p, c.Sig, fmt.Errorf("%w: the page %s was empty when read", errCapture, c.URL)
	case c.Body == 0 && c.Text == 0:
		return p, c.Sig, fmt.Errorf("%w: the page %s has a head and no body content (%d characters)", errCapture, c.URL, c.Size)
	case navigated && p.Status == 0:
		return p, c.Sig, fmt.Errorf("%w: no HTTP status came with the page %s (the document was read before its response was seen)", errCapture, c.URL)
	case formSig != "" && c.Sig == formSig:
		return p, c.Sig, fmt.Errorf("%w: the page %s shows the same text as the form page before the submission", errUnchanged, c.URL)
	}
	return p, c.Sig, nil
}

// screenshot returns a PNG of the element at xpath ("" = the whole page, at most 4000
// pixels high), or nil when it has no size.
func (t *tab) screenshot(ctx context.Context, xpath string) ([]byte, error) {
	type rect struct{ X, Y, W, H float64 }
	r, err := eval[*rect](ctx, t, jsBody(rectJS, xpath))
	if err != nil || r == nil {
		return nil, err
	}
	h := min(r.H, 4000)
	res, err := chromedp.Call(ctx, cdppage.CaptureScreenshot, cdppage.CaptureScreenshotParams{
		Format:                cdppage.CaptureScreenshotFormatPng,
		Clip:                  &cdppage.Viewport{X: r.X, Y: r.Y, Width: min(r.W, 2000), Height: h, Scale: 1},
		CaptureBeyondViewport: new(true),
	})
	if err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	return res.Data, nil
}
