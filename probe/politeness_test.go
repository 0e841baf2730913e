package probe

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/internal/testsites"
)

// arrival is one request as the site saw it.
type arrival struct {
	at   time.Time
	what string // method, path and Sec-Fetch-Dest
}

// arrivals records every request a site answers, in arrival order.
type arrivals struct {
	mu   sync.Mutex
	reqs []arrival
}

func (a *arrivals) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.reqs = append(a.reqs, arrival{time.Now(), r.Method + " " + r.URL.RequestURI() + " (" + r.Header.Get("Sec-Fetch-Dest") + ")"})
		a.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// sameComparer turns the HTTP path on after its checks: every fetch is "the same",
// and every page that is not empty is one record.
type sameComparer struct{}

func (sameComparer) Same(context.Context, Page, Page) (bool, string) { return true, "" }
func (sameComparer) Records(_ context.Context, pg Page) []string {
	if pg.HTML == "" {
		return nil
	}
	return []string{"/html[1]"}
}

// TestDelayHoldsForEveryRequest: a source probed with a 300 ms delay by two tabs, with
// pagination, the HTTP path for GET result pages (bookshop) or results fetched by the
// page's script (films), and a second prober on the same browser (as the guided rounds
// have): the site sees no two of its requests closer than the delay, whatever made them
// (navigation, scripts' fetches, HTTP fetches, the browser's favicon request). Only the
// subresources a document loads with it (its scripts and styles) are not spaced.
func TestDelayHoldsForEveryRequest(t *testing.T) {
	needBrowser(t)
	const delay = 300 * time.Millisecond
	o := testOptions()
	o.Delay, o.Tabs, o.MaxPagesPerProbe, o.IgnoreRobots = delay, 2, 2, true
	o.HTTPCompare = func() PageComparer { return sameComparer{} }
	b := startBrowser(t, o)
	for _, tc := range []struct{ site, want string }{{"bookshop", "()"}, {"films", "(empty)"}} {
		t.Run(tc.site, func(t *testing.T) {
			s, _ := testsites.ByName(tc.site)
			var rec arrivals
			srv := httptest.NewServer(rec.wrap(s.Handler))
			defer srv.Close()
			p, err := NewProber(b, o)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			f := discoverSite(t, p, s, srv.URL)
			po := DefaultPlanOptions()
			po.MaxProbes = 6
			var mem memRecorder
			if _, err := p.Run(t.Context(), f, AgnosticPlan(f, po), &mem); err != nil {
				t.Fatal(err)
			}
			o2 := o
			o2.HTTPCompare = nil
			p2, err := NewProber(b, o2)
			if err != nil {
				t.Fatal(err)
			}
			defer p2.Close()
			if _, err := p2.Run(t.Context(), f, AgnosticPlan(f, po)[:1], &mem); err != nil {
				t.Fatal(err)
			}
			checkSpacing(t, &rec, delay, tc.want)
		})
	}
}

// checkSpacing fails the test when two requests the limiter spaces arrived closer than
// delay, or when no request of kind want came.
func checkSpacing(t *testing.T, rec *arrivals, delay time.Duration, want string) {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	// A request leaves the delay after the one before was answered, so arrivals are
	// the delay apart whatever the latency on the way: no tolerance.
	closest := time.Hour
	kinds := map[string]int{}
	var prev *arrival
	for i, r := range rec.reqs {
		kind := r.what[strings.LastIndex(r.what, "("):]
		kinds[kind]++
		if kind == "(script)" || kind == "(style)" {
			continue // loads with its document
		}
		if prev != nil {
			gap := r.at.Sub(prev.at)
			closest = min(closest, gap)
			if gap < delay {
				t.Errorf("%s came %v after %s, want ≥ %v", r.what, gap.Round(time.Millisecond), prev.what, delay)
			}
		}
		prev = &rec.reqs[i]
	}
	t.Logf("%d requests %v, the closest two %v apart", len(rec.reqs), kinds, closest.Round(time.Millisecond))
	if kinds["(document)"] == 0 || kinds[want] == 0 || len(rec.reqs) < 10 {
		t.Errorf("requests by kind %v: want more, with documents and %s", kinds, want)
	}
	if t.Failed() {
		for _, r := range rec.reqs {
			t.Logf("%8v %s", r.at.Sub(rec.reqs[0].at).Round(time.Millisecond), r.what)
		}
	}
}
