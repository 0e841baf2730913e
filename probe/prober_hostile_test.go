package probe

import (
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/internal/testsites"
)

// first returns the first probe of probeOnce's result.
func first(probes []Probe, _ map[int]string) Probe { return probes[0] }

// TestHostilePages: every kind of bad input ends in bounded time with a clear message,
// and a run keeps the probes it did.
func TestHostilePages(t *testing.T) {
	needBrowser(t)
	s := testsites.Hostile()
	srv := s.NewServer()
	defer srv.Close()
	o := testOptions()
	o.StepTimeout = 6 * time.Second
	o.SettleTimeout = 2 * time.Second
	o.MaxPageBytes = 5 << 20
	o.Tabs = 4 // the cases run in parallel: most of them wait for a timeout
	b := startBrowser(t, o)
	p, err := NewProber(b, o)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// A closed port that Chromium does not refuse as unsafe.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	_ = l.Close()
	noRobots := o
	noRobots.IgnoreRobots = true
	pNoRobots, _ := NewProber(b, noRobots)
	defer pNoRobots.Close()

	// probeOnce discovers the form of a hostile page and runs a plan of the given
	// keyword values, returning the recorded probes.
	// probeOnce returns the recorded probes and, per probe number, the HTML of its pages.
	probeOnce := func(t *testing.T, path string, values ...string) ([]Probe, map[int]string) {
		t.Helper()
		d, err := p.Discover(t.Context(), srv.URL+path)
		if err != nil {
			t.Fatalf("Discover %s: %v", path, err)
		}
		var plan Plan
		for _, v := range values {
			plan = append(plan, Assignment{Kind: KindPlan, Values: map[string]string{"q": v}})
		}
		rec := &memRecorder{}
		sum, err := p.Run(t.Context(), d.Form(), plan, rec)
		if err != nil {
			t.Fatalf("Run %s: %v", path, err)
		}
		if sum.Probes != len(values) || len(rec.probes) != len(values) {
			t.Fatalf("Run %s: summary %+v, %d recorded, want %d", path, sum, len(rec.probes), len(values))
		}
		html := map[int]string{}
		for i, pr := range rec.probes {
			for _, pg := range rec.pages[i] {
				html[pr.N] += pg.HTML
			}
		}
		return rec.probes, html
	}
	wantErr := func(t *testing.T, err error, parts ...string) {
		t.Helper()
		if err == nil {
			t.Fatalf("no error, want one with %q", parts)
		}
		for _, part := range parts {
			if !strings.Contains(err.Error(), part) {
				t.Errorf("error %q does not say %q", err, part)
			}
		}
	}
	wantProbeErr := func(t *testing.T, pr Probe, parts ...string) {
		t.Helper()
		if pr.Error == "" {
			t.Fatalf("probe %d has no error, want one with %q (warnings %v)", pr.N, parts, pr.Warnings)
		}
		wantErr(t, errors.New(pr.Error), parts...)
	}
	hasWarning := func(pr Probe, part string) bool {
		for _, w := range pr.Warnings {
			if strings.Contains(w, part) {
				return true
			}
		}
		return false
	}

	tests := []struct {
		name  string
		limit time.Duration
		run   func(t *testing.T)
	}{
		{"unreachable URL, robots on", 20 * time.Second, func(t *testing.T) {
			_, err := p.Open(t.Context(), closed+"/search")
			wantErr(t, err, closed+"/robots.txt", "unreachable", "complete disallow")
			if !errors.Is(err, ErrBlocked) {
				t.Errorf("%v is not ErrBlocked", err)
			}
		}},
		{"unreachable URL, robots off", 20 * time.Second, func(t *testing.T) {
			_, err := pNoRobots.Open(t.Context(), closed+"/search")
			wantErr(t, err, closed+"/search", "ERR_CONNECTION_REFUSED")
		}},
		{"not http", time.Second, func(t *testing.T) {
			_, err := p.Open(t.Context(), "file:///etc/passwd")
			wantErr(t, err, "only http and https")
		}},
		{"no form", 10 * time.Second, func(t *testing.T) {
			_, err := p.Discover(t.Context(), srv.URL+testsites.HostileNoForm)
			if !errors.Is(err, ErrNoForm) {
				t.Fatalf("err = %v, want ErrNoForm", err)
			}
			wantErr(t, err, testsites.HostileNoForm)
		}},
		{"only non-search forms", 10 * time.Second, func(t *testing.T) {
			d, err := p.Discover(t.Context(), srv.URL+testsites.HostileLoginOnly)
			if !errors.Is(err, ErrNotSearchForm) || !errors.Is(err, ErrRefused) {
				t.Fatalf("err = %v, want ErrNotSearchForm", err)
			}
			wantErr(t, err, "login", "--force-form")
			if len(d.Forms) != 2 {
				t.Errorf("%d forms reported, want 2", len(d.Forms))
			}
		}},
		{"a page that never settles", 25 * time.Second, func(t *testing.T) {
			pr := first(probeOnce(t, testsites.HostileUnsettled, "the"))
			if pr.Error != "" || len(pr.Pages) != 1 {
				t.Fatalf("probe error %q, %d pages", pr.Error, len(pr.Pages))
			}
			if !hasWarning(pr, "did not settle") {
				t.Errorf("no settle warning: %v", pr.Warnings)
			}
		}},
		{"a page that never settles after a slow answer", 25 * time.Second, func(t *testing.T) {
			// The settle limit (three quarters of the step) counted from the first
			// change, which comes only after the server's delay, would outlast the
			// step: the page must be taken before the step ends, not lost.
			slow := o
			slow.SettleTimeout = 5 * time.Second
			ps, err := NewProber(b, slow)
			if err != nil {
				t.Fatal(err)
			}
			defer ps.Close()
			d, err := ps.Discover(t.Context(), srv.URL+testsites.HostileUnsettledSlow)
			if err != nil {
				t.Fatal(err)
			}
			pages, err := ps.Submit(t.Context(), d.Form(), map[string]string{"q": "the"})
			if err != nil {
				t.Fatalf("Submit: %v", err)
			}
			if len(pages) != 1 || len(recordIDs(pages[0].HTML)) == 0 {
				t.Fatalf("%d pages, want 1 with records", len(pages))
			}
			found := false
			for _, w := range pages[0].Warnings {
				found = found || strings.Contains(w, "did not settle before the step timeout")
			}
			if !found {
				t.Errorf("no warning that the step ended the wait: %v", pages[0].Warnings)
			}
		}},
		{"redirect loop", 20 * time.Second, func(t *testing.T) {
			wantProbeErr(t, first(probeOnce(t, testsites.HostileRedirectLoop, "the")), "ERR_TOO_MANY_REDIRECTS")
		}},
		{"50 MB page with Content-Length", 20 * time.Second, func(t *testing.T) {
			wantProbeErr(t, first(probeOnce(t, testsites.HostileHuge, "the")), "over the limit", "MaxPageBytes")
		}},
		{"50 MB page without Content-Length", 40 * time.Second, func(t *testing.T) {
			// Depending on how far Chromium got: the DOM is over the limit, or the
			// renderer is still busy parsing it.
			pr := first(probeOnce(t, testsites.HostileHugeChunked, "the"))
			wantProbeErr(t, pr, "/huge-chunked/results")
			if !strings.Contains(pr.Error, "over the limit") && !strings.Contains(pr.Error, "too large") {
				t.Errorf("error %q says neither over the limit nor too large", pr.Error)
			}
		}},
		{"JS infinite loop on the result page", 40 * time.Second, func(t *testing.T) {
			probes, _ := probeOnce(t, testsites.HostileBusy, "the", "a")
			for _, pr := range probes {
				wantProbeErr(t, pr, "does not respond")
			}
			if _, err := p.Open(t.Context(), srv.URL+testsites.HostileNoForm); err != nil {
				t.Errorf("the prober does not recover: %v", err)
			}
		}},
		{"JS infinite loop while loading", 30 * time.Second, func(t *testing.T) {
			_, err := p.Open(t.Context(), srv.URL+testsites.HostileBusyLoad)
			wantErr(t, err, testsites.HostileBusyLoad)
			if _, err := p.Open(t.Context(), srv.URL+testsites.HostileNoForm); err != nil {
				t.Errorf("the prober does not recover: %v", err)
			}
		}},
		{"dialogs", 15 * time.Second, func(t *testing.T) {
			d, err := p.Discover(t.Context(), srv.URL+testsites.HostileDialog)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(d.Page.Warnings, " "), "alert: Welcome") {
				t.Errorf("form page warnings %v", d.Page.Warnings)
			}
			probes, html := probeOnce(t, testsites.HostileDialog, "harry")
			pr := probes[0]
			if pr.Error != "" || len(recordIDs(html[pr.N])) == 0 {
				t.Errorf("probe error %q", pr.Error)
			}
			for _, w := range []string{"confirm: Search now?", "alert: Here are your results"} {
				if !hasWarning(pr, w) {
					t.Errorf("no warning %q in %v", w, pr.Warnings)
				}
			}
		}},
		{"a result page that never answers", 20 * time.Second, func(t *testing.T) {
			wantProbeErr(t, first(probeOnce(t, testsites.HostileSlow, "the")), "no result page within the step timeout")
		}},
		{"robots.txt disallows the action", 15 * time.Second, func(t *testing.T) {
			wantProbeErr(t, first(probeOnce(t, testsites.HostileRobotsBlocked, "the")), "robots.txt", "disallows /blocked/search")
		}},
		{"action on another origin", 10 * time.Second, func(t *testing.T) {
			d, err := p.Discover(t.Context(), srv.URL+testsites.HostileOffsite)
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Run(t.Context(), d.Form(), Plan{{Kind: KindPlan, Values: map[string]string{"q": "a"}}}, &memRecorder{})
			if !errors.Is(err, ErrRefused) {
				t.Fatalf("err = %v, want ErrRefused", err)
			}
			wantErr(t, err, "outside the origin")
		}},
		{"redirect to another origin", 15 * time.Second, func(t *testing.T) {
			wantProbeErr(t, first(probeOnce(t, testsites.HostileOffsiteRedir, "the")), "outside the form's origin")
		}},
		{"form built by a script", 15 * time.Second, func(t *testing.T) {
			probes, html := probeOnce(t, testsites.HostileJSForm, "harry")
			pr := probes[0]
			if pr.Error != "" || len(recordIDs(html[pr.N])) == 0 {
				t.Errorf("probe error %q", pr.Error)
			}
		}},
		{"controls outside a form", 15 * time.Second, func(t *testing.T) {
			d, err := p.Discover(t.Context(), srv.URL+testsites.HostileFormless)
			if err != nil {
				t.Fatal(err)
			}
			if d.Form().Index != nil {
				t.Errorf("chose form %s, want the formless box", d.Form().XPath)
			}
			pages, err := p.Submit(t.Context(), d.Form(), map[string]string{"q": "harry"})
			if err != nil {
				t.Fatal(err)
			}
			if len(pages) != 1 || len(recordIDs(pages[0].HTML)) == 0 || !strings.Contains(pages[0].URL, "/formless/results?q=harry") {
				t.Errorf("pages %d, url %s", len(pages), pages[0].URL)
			}
		}},
		{"404 and 500 result pages", 15 * time.Second, func(t *testing.T) {
			if pr := first(probeOnce(t, testsites.HostileNotFound, "the")); pr.Status != 404 || pr.Error != "" {
				t.Errorf("404 page: status %d, error %q", pr.Status, pr.Error)
			}
			if pr := first(probeOnce(t, testsites.HostileServerError, "the")); pr.Status != 500 || pr.Error != "" {
				t.Errorf("500 page: status %d, error %q", pr.Status, pr.Error)
			}
		}},
	}
	t.Run("cases", func(t *testing.T) {
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				start := time.Now()
				tc.run(t)
				// The check is that every case ends in bounded time, not a speed
				// test: parallel cases share 4 tabs (the limit counts from the start,
				// so allow for waiting for a tab), and CI runs other packages' browsers
				// beside this one under -race (at load average 25 a case ran past its
				// limit + 20 s).
				if d, bound := time.Since(start), 2*tc.limit+20*time.Second; d > bound {
					t.Errorf("took %v, more than %v (twice the case's limit %v, and 20 s for a tab)", d, bound, tc.limit)
				}
			})
		}
	})
	if v := s.Violations(); len(v) != 0 {
		t.Errorf("violations: %v", v)
	}
}
