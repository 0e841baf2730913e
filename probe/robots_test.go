package probe

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

func TestRobotsAllowed(t *testing.T) {
	const body = `# comment
User-agent: *
Disallow: /private/
Disallow: /*.pdf$
Allow: /private/open
Crawl-delay: 2

User-agent: trawl
User-agent: other
Disallow: /search
Allow: /search/ok$
Disallow: /tmp

User-agent: Googlebot
Disallow: /
`
	trawl := ParseRobots(body, "trawl")
	star := ParseRobots(body, "somebot")
	tests := []struct {
		name string
		r    *Robots
		path string
		want bool
	}{
		{"own group disallows", trawl, "/search?q=a", false},
		{"own group: longest match allows", trawl, "/search/ok", true},
		{"own group: $ anchors", trawl, "/search/ok/more", false},
		{"own group replaces *", trawl, "/private/x", true},
		{"robots.txt always allowed", trawl, "/robots.txt", true},
		{"star group", star, "/private/x", false},
		{"star: allow wins by length", star, "/private/open/1", true},
		{"star: wildcard and anchor", star, "/docs/a.pdf", false},
		{"star: anchored wildcard does not match a longer path", star, "/docs/a.pdf.html", true},
		{"star: unlisted", star, "/search", true},
		{"empty path", star, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := &url.URL{Path: tc.path}
			if p, q, ok := strings.Cut(tc.path, "?"); ok {
				u = &url.URL{Path: p, RawQuery: q}
			}
			got, rule := tc.r.Allowed(u)
			if got != tc.want {
				t.Errorf("Allowed(%q) = %v (%s), want %v", tc.path, got, rule, tc.want)
			}
		})
	}
	if star.CrawlDelay != 2*time.Second || trawl.CrawlDelay != 0 {
		t.Errorf("crawl delays: * %v, trawl %v", star.CrawlDelay, trawl.CrawlDelay)
	}
}

func TestRobotsFetch(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		body    string
		path    string
		allowed bool
		reason  string
	}{
		{"rules", 200, "User-agent: *\nDisallow: /x\n", "/x/1", false, "Disallow: /x"},
		{"404 means no rules", 404, "", "/x/1", true, ""},
		{"500 means complete disallow", 503, "", "/x/1", false, "assume complete disallow"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if ua := r.Header.Get("User-Agent"); !strings.Contains(ua, "trawl") {
					t.Errorf("User-Agent %q does not name trawl", ua)
				}
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			c := newRobotsCache("test trawl/0", DefaultOptions().logger())
			u, _ := url.Parse(srv.URL + tc.path)
			ok, reason := c.get(t.Context(), u).Allowed(u)
			if ok != tc.allowed || !strings.Contains(reason, tc.reason) {
				t.Errorf("Allowed = %v %q, want %v %q", ok, reason, tc.allowed, tc.reason)
			}
		})
	}
	t.Run("unreachable", func(t *testing.T) {
		c := newRobotsCache("trawl/0", DefaultOptions().logger())
		u, _ := url.Parse("http://127.0.0.1:1/search")
		ok, reason := c.get(t.Context(), u).Allowed(u)
		if ok || !strings.Contains(reason, "unreachable") {
			t.Errorf("Allowed = %v %q", ok, reason)
		}
	})
	t.Run("fetched once", func(t *testing.T) {
		var n atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			_, _ = w.Write([]byte("User-agent: *\nDisallow:\n"))
		}))
		defer srv.Close()
		c := newRobotsCache("trawl/0", DefaultOptions().logger())
		u, _ := url.Parse(srv.URL + "/a")
		for range 5 {
			c.get(t.Context(), u)
		}
		if n.Load() != 1 {
			t.Errorf("robots.txt fetched %d times", n.Load())
		}
	})
}

func TestLimiterSpacesRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := newLimiter()
		ctx := context.Background()
		start := time.Now()
		var times [4]time.Duration
		done := make(chan int)
		for i := range 4 {
			go func() {
				if err := l.wait(ctx, "h:1", 500*time.Millisecond); err != nil {
					t.Error(err)
				}
				times[i] = time.Since(start)
				done <- i
			}()
		}
		for range 4 {
			<-done
		}
		seen := map[time.Duration]bool{}
		for _, d := range times {
			seen[d] = true
		}
		for _, want := range []time.Duration{0, 500 * time.Millisecond, time.Second, 1500 * time.Millisecond} {
			if !seen[want] {
				t.Errorf("request times %v: none at %v", times, want)
			}
		}
		// Another host is not held up.
		t0 := time.Now()
		if err := l.wait(ctx, "other:1", 500*time.Millisecond); err != nil {
			t.Error(err)
		}
		if time.Since(t0) != 0 {
			t.Errorf("other host waited %v", time.Since(t0))
		}
	})
}
