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
			c := newRobotsCache("test trawl/0", DefaultOptions().logger(), newLimiter(), 0)
			u, _ := url.Parse(srv.URL + tc.path)
			ok, reason := c.get(t.Context(), u).Allowed(u)
			if ok != tc.allowed || !strings.Contains(reason, tc.reason) {
				t.Errorf("Allowed = %v %q, want %v %q", ok, reason, tc.allowed, tc.reason)
			}
		})
	}
	t.Run("unreachable", func(t *testing.T) {
		c := newRobotsCache("trawl/0", DefaultOptions().logger(), newLimiter(), 0)
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
		c := newRobotsCache("trawl/0", DefaultOptions().logger(), newLimiter(), 0)
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
		ended := make(chan int)
		for i := range 4 {
			go func() {
				done, err := l.acquire(ctx, "h:1", 500*time.Millisecond)
				if err != nil {
					t.Error(err)
					return
				}
				times[i] = time.Since(start)
				done() // answered at once
				ended <- i
			}()
		}
		for range 4 {
			<-ended
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
		done, err := l.acquire(ctx, "other:1", 500*time.Millisecond)
		if err != nil {
			t.Error(err)
		}
		done()
		if time.Since(t0) != 0 {
			t.Errorf("other host waited %v", time.Since(t0))
		}
	})
}

// TestLimiterCountsFromTheAnswer: a request answered late holds the next one back
// until the delay has passed since its answer, so that the server sees the two the
// delay apart even when the first one took long to leave or to arrive.
func TestLimiterCountsFromTheAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := newLimiter()
		ctx := context.Background()
		start := time.Now()
		done, err := l.acquire(ctx, "h:1", 300*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		time.AfterFunc(200*time.Millisecond, done) // answered after 200 ms
		done2, err := l.acquire(ctx, "h:1", 300*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		if got := time.Since(start); got != 500*time.Millisecond {
			t.Errorf("the second request left at %v, want 500ms (answer at 200ms + 300ms)", got)
		}
		done2()
		done2() // a second call is harmless
		// A cancelled wait gives the turn back.
		done3, err := l.acquire(ctx, "h:1", 300*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		if _, err := l.acquire(cctx, "h:1", 300*time.Millisecond); err == nil {
			t.Error("acquire while the turn is held did not end with its context")
		}
		done3()
		if _, err := l.acquire(ctx, "h:1", 300*time.Millisecond); err != nil {
			t.Error(err)
		}
	})
}
