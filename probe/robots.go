package probe

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Robots exclusion, after RFC 9309 (Koster, Illyes, Zeller, Sassman, "Robots Exclusion
// Protocol", 2022): the groups of the product token (else of "*"), the longest matching
// rule wins, Allow wins a tie, "*" and a final "$" in patterns, /robots.txt is always
// allowed, 4xx means no rules, 5xx or an unreachable server means complete disallow.
// Crawl-delay (not in the RFC, widely used) raises the delay between requests.

// robotsRule is one Allow or Disallow line.
type robotsRule struct {
	allow   bool
	pattern string
	re      *regexp.Regexp
}

// Robots is the parsed robots.txt of one origin, for one user agent.
type Robots struct {
	rules []robotsRule
	// CrawlDelay is the Crawl-delay of the chosen group (0 if none).
	CrawlDelay time.Duration
	// all is set when the whole site is disallowed because robots.txt could not be
	// read (5xx, network error); reason says why.
	all    bool
	reason string
}

// ParseRobots parses a robots.txt body for the product token agent (case-insensitive).
func ParseRobots(body string, agent string) *Robots {
	agent = strings.ToLower(agent)
	type group struct {
		agents []string
		rules  []robotsRule
		delay  time.Duration
	}
	var groups []*group
	var cur *group
	lastWasAgent := false
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k = strings.ToLower(strings.TrimSpace(k))
		v = strings.TrimSpace(v)
		switch k {
		case "user-agent":
			if cur == nil || !lastWasAgent {
				cur = &group{}
				groups = append(groups, cur)
			}
			cur.agents = append(cur.agents, strings.ToLower(v))
			lastWasAgent = true
			continue
		case "allow", "disallow":
			if cur != nil && v != "" {
				cur.rules = append(cur.rules, robotsRule{allow: k == "allow", pattern: v, re: robotsPattern(v)})
			}
		case "crawl-delay":
			if cur != nil {
				if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
					cur.delay = time.Duration(min(s, 60) * float64(time.Second))
				}
			}
		}
		lastWasAgent = false
	}
	r := &Robots{}
	pick := func(match func(string) bool) bool {
		found := false
		for _, g := range groups {
			for _, a := range g.agents {
				if match(a) {
					r.rules = append(r.rules, g.rules...)
					r.CrawlDelay = max(r.CrawlDelay, g.delay)
					found = true
					break
				}
			}
		}
		return found
	}
	if !pick(func(a string) bool { return a == agent }) {
		pick(func(a string) bool { return a == "*" })
	}
	return r
}

// Allowed reports whether the URL may be fetched; when not, it returns the rule that
// forbids it.
func (r *Robots) Allowed(u *url.URL) (bool, string) {
	if r.all {
		return false, r.reason
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if p == "/robots.txt" {
		return true, ""
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	best, bestLen, allow := "", -1, true
	for _, rule := range r.rules {
		if !rule.re.MatchString(p) {
			continue
		}
		n := len(rule.pattern)
		if n > bestLen || (n == bestLen && rule.allow && !allow) {
			best, bestLen, allow = rule.pattern, n, rule.allow
		}
	}
	if allow {
		return true, ""
	}
	return false, "Disallow: " + best
}

// robotsPattern compiles a robots.txt path pattern ("*" = any run, a final "$" = the
// end of the path) into an anchored regular expression.
func robotsPattern(p string) *regexp.Regexp {
	anchored := strings.HasSuffix(p, "$")
	p = strings.TrimSuffix(p, "$")
	parts := strings.Split(p, "*")
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	expr := "^" + strings.Join(parts, ".*")
	if anchored {
		expr += "$"
	}
	return regexp.MustCompile(expr) // quoted parts joined by .*: always valid
}

// robotsCache fetches and keeps the robots.txt of each origin (with Go's HTTP client,
// not the browser).
type robotsCache struct {
	client *http.Client
	ua     string
	log    *slog.Logger
	lim    *limiter // robots.txt takes its turn like any other request
	delay  time.Duration
	mu     sync.Mutex
	byOrig map[string]*robotsEntry
}

type robotsEntry struct {
	once sync.Once
	r    *Robots
}

func newRobotsCache(ua string, log *slog.Logger, lim *limiter, delay time.Duration) *robotsCache {
	return &robotsCache{
		client: &http.Client{Timeout: 15 * time.Second, CheckRedirect: noRedirects},
		ua:     ua, log: log, lim: lim, delay: delay, byOrig: map[string]*robotsEntry{},
	}
}

// get returns the robots rules of u's origin, fetching them once.
func (c *robotsCache) get(ctx context.Context, u *url.URL) *Robots {
	origin := u.Scheme + "://" + u.Host
	c.mu.Lock()
	e, ok := c.byOrig[origin]
	if !ok {
		e = &robotsEntry{}
		c.byOrig[origin] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.r = c.fetch(ctx, origin) })
	return e.r
}

func (c *robotsCache) fetch(ctx context.Context, origin string) *Robots {
	u := origin + "/robots.txt"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return &Robots{all: true, reason: fmt.Sprintf("bad robots.txt URL %s: %v", u, err)}
	}
	req.Header.Set("User-Agent", c.ua)
	resp, err := c.lim.do(c.client, req, c.delay)
	if err != nil {
		c.log.Warn("robots.txt unreachable: assuming complete disallow (RFC 9309)", "url", u, "err", err)
		return &Robots{all: true, reason: fmt.Sprintf("%s is unreachable (%v), so RFC 9309 says to assume complete disallow", u, err)}
	}
	defer func() { _ = resp.Body.Close() }()
	switch {
	case resp.StatusCode >= 500:
		return &Robots{all: true, reason: fmt.Sprintf("%s answered %s, so RFC 9309 says to assume complete disallow", u, resp.Status)}
	case resp.StatusCode >= 400:
		c.log.Debug("no robots.txt", "url", u, "status", resp.StatusCode)
		return &Robots{}
	case resp.StatusCode >= 300:
		return &Robots{} // too many redirects were followed already: no rules
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 500<<10)) // RFC 9309: parse at least 500 KiB
	if err != nil {
		return &Robots{all: true, reason: fmt.Sprintf("read %s: %v", u, err)}
	}
	r := ParseRobots(string(body), UserAgentToken)
	c.log.Debug("robots.txt", "url", u, "rules", len(r.rules), "crawl_delay", r.CrawlDelay)
	return r
}

// limiter spaces the requests to each host. A request may leave only when the one
// before it to the same host was answered (its response headers came, or it failed)
// and the delay has passed since then: requests to one host go one at a time, and the
// server sees them at least the delay apart whatever the browser's or the network's
// latency on the way. Waiting requests take their turns in order.
type limiter struct {
	mu    sync.Mutex
	hosts map[string]*hostGate
}

// hostGate is the turn of one host: a token taken by the request that may leave, and
// the time its predecessor was answered (read and written by the token's holder only).
type hostGate struct {
	turn     chan struct{}
	answered time.Time
}

func newLimiter() *limiter { return &limiter{hosts: map[string]*hostGate{}} }

// acquire blocks until a request to host may leave: the request before it was answered
// at least d ago. The caller sends the request, then calls done once it was answered
// (or failed, or was not sent after all); done may be called more than once. With d ≤ 0
// requests are not spaced.
func (l *limiter) acquire(ctx context.Context, host string, d time.Duration) (done func(), err error) {
	if d <= 0 {
		return func() {}, ctx.Err()
	}
	l.mu.Lock()
	g := l.hosts[host]
	if g == nil {
		g = &hostGate{turn: make(chan struct{}, 1)}
		g.turn <- struct{}{}
		l.hosts[host] = g
	}
	l.mu.Unlock()
	select {
	case <-g.turn:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if wait := time.Until(g.answered.Add(d)); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			g.turn <- struct{}{}
			return nil, ctx.Err()
		}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			g.answered = time.Now()
			g.turn <- struct{}{}
		})
	}, nil
}

// maxRedirects is the most redirects a fetch with Go's client follows.
const maxRedirects = 5

// noRedirects makes a client return redirects to limiter.do, which follows them.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// do sends a GET request with Go's client (which must not follow redirects itself, see
// noRedirects) and follows up to maxRedirects redirects, each request taking its turn
// at the limiter. Headers go along to the same host only.
func (l *limiter) do(client *http.Client, req *http.Request, d time.Duration) (*http.Response, error) {
	for hop := 0; ; hop++ {
		done, err := l.acquire(req.Context(), req.URL.Host, d)
		if err != nil {
			return nil, err
		}
		resp, err := client.Do(req)
		done()
		if err != nil {
			return nil, err
		}
		loc := resp.Header.Get("Location")
		switch resp.StatusCode {
		case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		default:
			return resp, nil
		}
		if loc == "" {
			return resp, nil
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		_ = resp.Body.Close()
		if hop >= maxRedirects {
			return nil, fmt.Errorf("%s: more than %d redirects", req.URL, maxRedirects)
		}
		next, err := req.URL.Parse(loc)
		if err != nil {
			return nil, fmt.Errorf("%s: redirect to a bad URL %q: %w", req.URL, loc, err)
		}
		nreq, err := http.NewRequestWithContext(req.Context(), http.MethodGet, next.String(), nil)
		if err != nil {
			return nil, err
		}
		if next.Host == req.URL.Host {
			nreq.Header = req.Header.Clone()
		} else {
			nreq.Header.Set("User-Agent", req.Header.Get("User-Agent"))
		}
		req = nreq
	}
}
