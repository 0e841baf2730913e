package probe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Fetcher gets documents (feeds, article pages) with a plain HTTP GET, as politely as the
// prober: it obeys robots.txt (RFC 9309, Crawl-delay included), spaces its requests to a
// host by a delay, bounds the size of a response, and can be held to one origin. It runs
// no script: article pages of news and blog sites are served whole, and their feeds are
// XML.
type Fetcher struct {
	o      FetchOptions
	client *http.Client
	robots *robotsCache
	lim    *limiter
	log    *slog.Logger
}

// FetchOptions configures a Fetcher. Start from DefaultFetchOptions.
type FetchOptions struct {
	// Delay is the least time between two requests to one host (robots.txt's
	// Crawl-delay raises it).
	Delay time.Duration
	// Timeout bounds one request.
	Timeout time.Duration
	// MaxBytes refuses larger responses.
	MaxBytes int64
	// IgnoreRobots skips robots.txt (for one's own sites only).
	IgnoreRobots bool
	// Origin, when set (scheme://host[:port]), refuses URLs of any other origin,
	// redirects included.
	Origin string
	// Logger receives diagnostics. Nil discards them.
	Logger *slog.Logger
}

// DefaultFetchOptions returns the prober's politeness: 1 s between requests to a host,
// robots.txt obeyed, 30 s per request, 16 MiB per response.
func DefaultFetchOptions() FetchOptions {
	return FetchOptions{Delay: time.Second, Timeout: 30 * time.Second, MaxBytes: 16 << 20}
}

// ErrFetchRefused marks a URL the Fetcher will not get: disallowed by robots.txt, of
// another origin, or not http(s).
var ErrFetchRefused = errors.New("probe: fetch refused")

// NewFetcher returns a Fetcher, or an error for invalid options.
func NewFetcher(o FetchOptions) (*Fetcher, error) {
	switch {
	case o.Delay < 0:
		return nil, fmt.Errorf("probe: fetch Delay must be ≥ 0, got %v", o.Delay)
	case o.Timeout <= 0:
		return nil, fmt.Errorf("probe: fetch Timeout must be > 0, got %v", o.Timeout)
	case o.MaxBytes < 1<<10:
		return nil, fmt.Errorf("probe: fetch MaxBytes must be ≥ 1 KiB, got %d", o.MaxBytes)
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	f := &Fetcher{o: o, lim: newLimiter(), log: log}
	f.client = &http.Client{
		Timeout: o.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 {
				return errors.New("more than 5 redirects")
			}
			return f.allowed(req.Context(), req.URL)
		},
	}
	if !o.IgnoreRobots {
		f.robots = newRobotsCache(f.userAgent(), log, f.lim, o.Delay)
	}
	return f, nil
}

func (f *Fetcher) userAgent() string { return UserAgentToken + "/" + Version }

// allowed checks the scheme, the origin and robots.txt for u.
func (f *Fetcher) allowed(ctx context.Context, u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%w: %s is not http(s)", ErrFetchRefused, u)
	}
	if f.o.Origin != "" && !strings.EqualFold(u.Scheme+"://"+u.Host, strings.TrimSuffix(f.o.Origin, "/")) {
		return fmt.Errorf("%w: %s is outside the origin %s", ErrFetchRefused, u, f.o.Origin)
	}
	if f.robots != nil {
		r := f.robots.get(ctx, u)
		if ok, why := r.Allowed(u); !ok {
			return fmt.Errorf("%w: %s: %s", ErrFetchRefused, u, why)
		}
	}
	return nil
}

// Get fetches rawURL and returns the body and the final URL after redirects. A status
// other than 2xx is an error naming the URL and the status.
func (f *Fetcher) Get(ctx context.Context, rawURL string) ([]byte, string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, "", fmt.Errorf("probe: fetch %q: %w", rawURL, err)
	}
	if err := f.allowed(ctx, u); err != nil {
		return nil, "", err
	}
	delay := f.o.Delay
	if f.robots != nil {
		if d := f.robots.get(ctx, u).CrawlDelay; d > delay {
			delay = d
		}
	}
	done, err := f.lim.acquire(ctx, u.Host, delay)
	if err != nil {
		return nil, "", err
	}
	defer done()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", fmt.Errorf("probe: fetch %s: %w", u, err)
	}
	req.Header.Set("User-Agent", f.userAgent())
	resp, err := f.client.Do(req)
	done()
	if err != nil {
		return nil, "", fmt.Errorf("probe: fetch %s: %w", u, err)
	}
	defer func() { _ = resp.Body.Close() }()
	final := resp.Request.URL.String()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, final, fmt.Errorf("probe: fetch %s: status %s", u, resp.Status)
	}
	if resp.ContentLength > f.o.MaxBytes {
		return nil, final, fmt.Errorf("probe: fetch %s: %d bytes exceed MaxBytes %d", u, resp.ContentLength, f.o.MaxBytes)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, f.o.MaxBytes+1))
	if err != nil {
		return nil, final, fmt.Errorf("probe: fetch %s: %w", u, err)
	}
	if int64(len(body)) > f.o.MaxBytes {
		return nil, final, fmt.Errorf("probe: fetch %s: more than MaxBytes %d bytes", u, f.o.MaxBytes)
	}
	f.log.Debug("fetched", "url", final, "bytes", len(body))
	return body, final, nil
}
