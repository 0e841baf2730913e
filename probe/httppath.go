package probe

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"golang.org/x/net/html/charset"
)

// How a result page was fetched (PageRef.Via).
const (
	ViaBrowser = "browser"
	ViaHTTP    = "http"
)

// PageComparer tells the prober whether plain HTTP gives the same result pages as the
// browser. cmd implements it with FOREST (package records), which probe does not
// import.
type PageComparer interface {
	// Same reports whether fetched, the page of browser's URL fetched over HTTP,
	// yields the same wrapper and records as the browser's capture, and says why not.
	Same(ctx context.Context, browser, fetched Page) (bool, string)
	// Records returns the absolute, index-qualified XPaths (/html[1]/body[1]/…) of the
	// records the wrapper learnt from the browser's pages finds on a page (none: an
	// empty page, or one laid out otherwise).
	Records(ctx context.Context, pg Page) []string
}

// httpChecks is the number of browser probes whose first page must equal its HTTP
// fetch (with records on it) before result pages are fetched over HTTP.
const httpChecks = 2

// httpPath fetches the result pages of a GET form over plain HTTP once they proved to
// be the browser's: after each of the first probes in the browser, the first result
// page is fetched again over HTTP with the tab's cookies and request headers and
// compared (wrapper and records); the URL the form's fields give must be the one the
// browser submitted, and the "next" link found in the HTML the one the browser
// followed. Any difference turns the path off for the rest of the run; so does a page
// fetched over HTTP that has no records while the browser's has some.
//
// A page fetched over HTTP counts only with records on it. Finding them with the
// wrapper costs twice the fetch itself, so the checks also learn the page's record
// marker (recordMarker): the text that opens every record element, as the site spells
// it. When every check page has exactly as many markers as the wrapper found records,
// later pages are tested by counting markers in their bytes; otherwise by the wrapper.
type httpPath struct {
	p      *Prober
	cmp    PageComparer
	client *http.Client

	mu       sync.Mutex
	state    int // 0 checking, 1 on, -1 off
	agreed   int
	reason   string
	header   http.Header
	cookies  []*http.Cookie
	submitKV [2]string // the submit control's name=value the browser sends, if any
	nextOK   bool      // the HTML's next link was the browser's
	nextBad  bool
	marker   string // the record marker of the check pages ("" when markerBad)
	// markerBad: a check page's markers did not match its records, or the check
	// pages' markers differ; pages are then tested by the wrapper.
	markerBad bool
}

func newHTTPPath(p *Prober, cmp PageComparer) *httpPath {
	return &httpPath{p: p, cmp: cmp, client: &http.Client{Timeout: p.opts.StepTimeout, CheckRedirect: noRedirects}}
}

func (h *httpPath) status() (state int, reason string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.state, h.reason
}

func (h *httpPath) off(reason string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.state != -1 {
		h.state, h.reason = -1, reason
		h.p.log.Info("result pages come from the browser", "reason", reason)
	}
}

// submitVia runs one probe: over HTTP when the path is on, else in the browser
// (checking the HTTP path while it is being checked). The note says what the HTTP
// path did, for the probe log.
func (p *Prober) submitVia(ctx context.Context, t *tab, f Form, values map[string]string, maxPages int, shot bool) (submission, string, error) {
	h := p.http
	if h == nil || !strings.EqualFold(f.Method, "GET") && f.Method != "" {
		sub, err := p.submit(ctx, t, f, values, maxPages, shot)
		return sub, "", err
	}
	state, _ := h.status()
	if state == 1 && !shot {
		sub, why := h.submit(ctx, f, values, maxPages)
		if why == "" {
			return sub, "http", nil
		}
		bsub, err := p.submit(ctx, t, f, values, maxPages, shot)
		if why == "empty" && err == nil && len(bsub.Pages) > 0 && len(h.cmp.Records(ctx, bsub.Pages[0])) > 0 {
			h.off("a page fetched over HTTP had no records, the browser's had some")
			return bsub, "differs: no records over HTTP, some in the browser; browser from now on", nil
		}
		return bsub, "browser: " + why, err
	}
	sub, err := p.submit(ctx, t, f, values, maxPages, shot)
	if err != nil || state != 0 || len(sub.Pages) == 0 || !sub.Navigated {
		if state == 0 && err == nil && len(sub.Pages) > 0 && !sub.Navigated {
			h.off("the results come without navigation (scripts)")
		}
		return sub, "", err
	}
	return sub, h.check(ctx, t, f, values, sub), nil
}

// check compares the browser's first result page with its HTTP fetch.
func (h *httpPath) check(ctx context.Context, t *tab, f Form, values map[string]string, sub submission) string {
	first := sub.Pages[0]
	u, err := formURL(f, values, [2]string{})
	if err != nil {
		h.off(err.Error())
		return "off: " + err.Error()
	}
	if !sameQuery(u, first.URL) {
		// The browser may add the clicked submit control.
		if kv, ok := submitPair(f, u, first.URL); ok {
			h.mu.Lock()
			h.submitKV = kv
			h.mu.Unlock()
		} else {
			why := fmt.Sprintf("the browser submitted %s, the form's fields give %s", first.URL, u)
			h.off(why)
			return "off: " + why
		}
	}
	// The tab's cookies and request headers go with the fetch.
	sctx, cancel := t.stepCtx(ctx, h.p.opts.StepTimeout)
	res, err := chromedp.Call(sctx, network.GetCookies, network.GetCookiesParams{URLs: []string{first.URL}})
	cancel()
	if err != nil {
		h.off("read the tab's cookies: " + err.Error())
		return "off: cookies: " + err.Error()
	}
	var jar []*http.Cookie
	for _, c := range res.Cookies {
		jar = append(jar, &http.Cookie{Name: c.Name, Value: c.Value})
	}
	hdr := t.documentHeaders()
	h.mu.Lock()
	h.cookies, h.header = jar, hdr
	h.mu.Unlock()
	pg, err := h.fetch(ctx, first.URL)
	if err != nil {
		h.off("fetch over HTTP: " + err.Error())
		return "off: " + err.Error()
	}
	same, why := h.cmp.Same(ctx, first, pg)
	if !same {
		h.off("the HTTP page differs from the browser's: " + why)
		return "differs: " + why
	}
	if len(sub.Pages) > 1 {
		next, ok := nextLink(pg)
		h.mu.Lock()
		if ok && stripFragment(next) == stripFragment(sub.Pages[1].URL) {
			h.nextOK = true
		} else {
			h.nextBad = true
		}
		h.mu.Unlock()
	}
	recs := h.cmp.Records(ctx, pg)
	if len(recs) == 0 {
		return "same (no records)"
	}
	h.learnMarker(pg, recs)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.agreed++
	if h.agreed >= httpChecks && h.state == 0 {
		h.state = 1
		h.p.log.Info("result pages come over HTTP from now on", "checks", h.agreed)
	}
	return "same"
}

// submit fetches the result pages of one submission over HTTP. A non-empty reason
// means the browser must do it: "empty" (the first page has no records), or why
// HTTP cannot.
func (h *httpPath) submit(ctx context.Context, f Form, values map[string]string, maxPages int) (submission, string) {
	h.mu.Lock()
	kv, nextOK, nextBad := h.submitKV, h.nextOK, h.nextBad
	h.mu.Unlock()
	if maxPages > 1 && (!nextOK || nextBad) {
		return submission{}, "the next link over HTTP was not checked against the browser"
	}
	u, err := formURL(f, values, kv)
	if err != nil {
		return submission{}, err.Error()
	}
	var sub submission
	sub.Trigger, sub.Navigated = "http", true
	visited := map[string]bool{}
	for k := 0; k < maxPages; k++ {
		start := time.Now()
		pg, err := h.fetch(ctx, u)
		if err != nil {
			if k == 0 {
				return submission{}, err.Error()
			}
			sub.Warnings = append(sub.Warnings, fmt.Sprintf("page %d over HTTP: %v", k+1, err))
			break
		}
		pg.Elapsed = time.Since(start)
		if !h.hasRecords(ctx, pg) {
			if k == 0 {
				return submission{}, "empty"
			}
			break
		}
		sub.Pages = append(sub.Pages, pg)
		visited[stripFragment(pg.URL)] = true
		next, ok := nextLink(pg)
		if !ok || visited[stripFragment(next)] {
			break
		}
		nu, err := url.Parse(next)
		pu, _ := url.Parse(pg.URL)
		if err != nil || pu == nil || originOf(nu) != originOf(pu) {
			break
		}
		u = next
	}
	return sub, ""
}

// fetch GETs one page with the tab's cookies and headers, politely (robots.txt and the
// browser's per-host limiter, shared with its tabs' requests; redirects too).
func (h *httpPath) fetch(ctx context.Context, raw string) (Page, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Page{}, err
	}
	pol := h.p.pol
	d := pol.delay
	if pol.robots != nil {
		r := pol.robots.get(ctx, u)
		if ok, rule := r.Allowed(u); !ok {
			return Page{}, fmt.Errorf("%w: robots.txt disallows %s (%s)", ErrBlocked, u.RequestURI(), rule)
		}
		d = max(d, r.CrawlDelay)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return Page{}, err
	}
	h.mu.Lock()
	for k, vs := range h.header {
		req.Header[k] = slices.Clone(vs)
	}
	for _, c := range h.cookies {
		req.AddCookie(c)
	}
	h.mu.Unlock()
	req.Header.Set("User-Agent", h.p.b.ua)
	req.Header.Del("Accept-Encoding") // Go's transport negotiates gzip itself
	resp, err := pol.lim.do(h.client, req, d)
	if err != nil {
		return Page{}, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return Page{}, fmt.Errorf("%s: status %s", raw, resp.Status)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "" && !strings.Contains(ct, "html") {
		return Page{}, fmt.Errorf("%s: content type %s, not HTML", raw, ct)
	}
	if resp.Request.URL.Host != u.Host || resp.Request.URL.Scheme != u.Scheme {
		return Page{}, fmt.Errorf("%w: %s redirects to another origin", ErrBlocked, raw)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, pol.maxBytes+1))
	if err != nil {
		return Page{}, err
	}
	if int64(len(body)) > pol.maxBytes {
		return Page{}, fmt.Errorf("%w: %s is over %d bytes (MaxPageBytes)", ErrBlocked, raw, pol.maxBytes)
	}
	text, err := decodeHTML(body, resp.Header.Get("Content-Type"))
	if err != nil {
		return Page{}, fmt.Errorf("%s: %w", raw, err)
	}
	return Page{URL: resp.Request.URL.String(), Status: resp.StatusCode, HTML: text, Navigated: true, Via: ViaHTTP}, nil
}

// decodeHTML decodes an HTML document to UTF-8 by its Content-Type's charset, its
// BOM or meta tag, or a guess (the HTML standard's encoding sniffing); UTF-8 is
// taken as it is.
func decodeHTML(body []byte, contentType string) (string, error) {
	e, name, _ := charset.DetermineEncoding(body[:min(len(body), 1024)], contentType)
	if name == "utf-8" {
		return string(body), nil
	}
	text, err := e.NewDecoder().Bytes(body)
	if err != nil {
		return "", fmt.Errorf("decode %s: %w", name, err)
	}
	return string(text), nil
}

// formURL is the URL a browser submits for a GET form with these values (fields left
// out keep their defaults), plus the submit control's pair kv when it is set.
func formURL(f Form, values map[string]string, kv [2]string) (string, error) {
	base, err := url.Parse(f.PageURL)
	if err != nil {
		return "", fmt.Errorf("the form's page URL %q: %w", f.PageURL, err)
	}
	action := base
	if f.Action != "" {
		a, err := url.Parse(f.Action)
		if err != nil || a.Scheme == "javascript" {
			return "", fmt.Errorf("the form's action %q is not a URL", f.Action)
		}
		action = base.ResolveReference(a)
	}
	var q []string
	add := func(k, v string) { q = append(q, url.QueryEscape(k)+"="+url.QueryEscape(v)) }
	done := map[string]bool{}
	for _, fd := range f.Fields {
		if fd.Name == "" || fd.Disabled || fd.Submit {
			continue
		}
		v, assigned := values[fd.Name]
		switch fillKind(fd) {
		case "checkbox":
			if assigned {
				return "", fmt.Errorf("checkbox %q is assigned: the prober leaves those to the browser", fd.Name)
			}
			if fd.Checked {
				add(fd.Name, cmpOr(fd.Value, "on"))
			}
		case "radio":
			if done[fd.Name] {
				continue
			}
			if assigned {
				done[fd.Name] = true
				add(fd.Name, v)
			} else if fd.Checked {
				add(fd.Name, cmpOr(fd.Value, "on"))
			}
		case "select":
			if fd.Multiple {
				return "", fmt.Errorf("select %q takes several values: left to the browser", fd.Name)
			}
			if !assigned {
				v = defaultOption(fd)
			}
			add(fd.Name, v)
		default:
			if !assigned {
				v = fd.Value
			}
			add(fd.Name, v)
		}
	}
	if kv[0] != "" {
		add(kv[0], kv[1])
	}
	out := *action
	out.RawQuery = strings.Join(q, "&")
	out.Fragment = ""
	return out.String(), nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// defaultOption is the value a select submits when nobody chose: the selected option,
// else the first enabled one.
func defaultOption(fd Field) string {
	for _, o := range fd.Options {
		if o.Selected {
			return o.Value
		}
	}
	for _, o := range fd.Options {
		if !o.Disabled {
			return o.Value
		}
	}
	return ""
}

// queryPairs returns a URL without its query and its sorted name=value pairs.
func queryPairs(raw string) (string, []string, bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", nil, false
	}
	vs, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return "", nil, false
	}
	var pairs []string
	for k, list := range vs {
		for _, v := range list {
			pairs = append(pairs, k+"="+v)
		}
	}
	slices.Sort(pairs)
	u.RawQuery, u.Fragment = "", ""
	return u.String(), pairs, true
}

// sameQuery reports whether two URLs are equal up to the order of their parameters.
func sameQuery(a, b string) bool {
	ua, pa, ok1 := queryPairs(a)
	ub, pb, ok2 := queryPairs(b)
	return ok1 && ok2 && ua == ub && slices.Equal(pa, pb)
}

// submitPair reports whether browser's URL is ours plus one submit control's pair.
func submitPair(f Form, ours, browser string) ([2]string, bool) {
	for _, fd := range f.Fields {
		if fd.Submit && fd.Name != "" {
			kv := [2]string{fd.Name, fd.Value}
			if sameQuery(ours+"&"+url.QueryEscape(fd.Name)+"="+url.QueryEscape(fd.Value), browser) {
				return kv, true
			}
		}
	}
	return [2]string{}, false
}

// isNextText reports whether a link text means "next page".
func isNextText(s string) bool {
	if s == "" {
		return false // an image link
	}
	s = strings.Trim(s, " »›>→")
	switch s {
	case "", "next", "next page", "suivant", "suivante", "page suivante", "weiter", "nächste", "siguiente", "volgende", "próxima", "następna":
		return true
	}
	return false
}

// documentHeaders returns the request headers of the tab's last main-frame document
// (Accept, Accept-Language, the client hints), for fetches that must look the same;
// cookies, the host and hop-by-hop headers are left out.
func (t *tab) documentHeaders() http.Header {
	t.mu.Lock()
	defer t.mu.Unlock()
	h := http.Header{}
	for k, v := range t.docHeaders {
		switch strings.ToLower(k) {
		case "cookie", "host", "content-length", "connection", "accept-encoding", "user-agent", "referer", "upgrade-insecure-requests":
			continue
		}
		if s, ok := v.(string); ok {
			h.Set(k, s)
		}
	}
	return h
}
