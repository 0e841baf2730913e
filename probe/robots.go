package probe

import (
	"bufio"
	"context"
	"errors"
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
	mu     sync.Mutex
	byOrig map[string]*robotsEntry
}

type robotsEntry struct {
	once sync.Once
	r    *Robots
}

func newRobotsCache(ua string, log *slog.Logger) *robotsCache {
	return &robotsCache{
		client: &http.Client{
			Timeout: 15 * time.Second,
			CheckRedirect: func(req *http.Request, via []*http.Request) error {
				if len(via) >= 5 {
					return errors.New("more than 5 redirects")
				}
				return nil
			},
		},
		ua: ua, log: log, byOrig: map[string]*robotsEntry{},
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
	resp, err := c.client.Do(req)
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

// limiter spaces the requests to each host by at least a delay: each request reserves
// the next free slot of its host, so concurrent tabs queue fairly.
type limiter struct {
	mu   sync.Mutex
	next map[string]time.Time
}

func newLimiter() *limiter { return &limiter{next: map[string]time.Time{}} }

// wait blocks until a request to host may start, at least d after the previous one.
func (l *limiter) wait(ctx context.Context, host string, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	l.mu.Lock()
	now := time.Now()
	at := l.next[host]
	if at.Before(now) {
		at = now
	}
	l.next[host] = at.Add(d)
	l.mu.Unlock()
	if wait := time.Until(at); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
