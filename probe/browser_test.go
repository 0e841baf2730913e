package probe

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/internal/testsites"
)

// needBrowser skips a test unless TRAWL_BROWSER_TESTS=1; with it, a missing Chromium
// fails the test.
func needBrowser(t *testing.T) {
	t.Helper()
	if os.Getenv("TRAWL_BROWSER_TESTS") != "1" {
		t.Skip("browser test: set TRAWL_BROWSER_TESTS=1 (and install chromium) to run it")
	}
	if _, err := FindChrome(""); err != nil {
		t.Fatal(err)
	}
}

// testOptions are fast options for local test sites: no delay, short timeouts.
func testOptions() Options {
	o := DefaultOptions()
	o.Delay = 0
	o.StepTimeout = 15 * time.Second
	o.SettleTimeout = 3 * time.Second
	o.Quiet = 100 * time.Millisecond
	o.AllowPOST = true
	o.Harvest = false // tests count probes; TestHarvest turns it on
	if testing.Verbose() {
		o.Logger = testLogger()
	}
	return o
}

// startBrowser starts a browser for the test and, at its end, closes it and checks
// that no Chromium process of it is left.
func startBrowser(t *testing.T, o Options) *Browser {
	t.Helper()
	b, err := Start(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeAndCheck(t, b) })
	return b
}

func closeAndCheck(t *testing.T, b *Browser) {
	t.Helper()
	b.Close()
	if pids := b.leftovers(); len(pids) > 0 {
		t.Errorf("Chromium processes left after Close: %v", pids)
	}
	if _, err := os.Stat(b.dataDir); !os.IsNotExist(err) {
		t.Errorf("profile directory %s left after Close (%v)", b.dataDir, err)
	}
}

func TestFindChromeMissing(t *testing.T) {
	_, err := FindChrome("/nonexistent/chromium")
	if !errors.Is(err, ErrNoChromium) || !strings.Contains(err.Error(), "apt-get install -y chromium") {
		t.Errorf("err = %v", err)
	}
	t.Setenv("TRAWL_CHROME", "/nonexistent/chrome")
	if _, err := FindChrome(""); !errors.Is(err, ErrNoChromium) || !strings.Contains(err.Error(), "TRAWL_CHROME") {
		t.Errorf("err = %v", err)
	}
	o := DefaultOptions()
	o.ChromePath = "/nonexistent/chromium"
	if _, err := Start(t.Context(), o); !errors.Is(err, ErrNoChromium) {
		t.Errorf("Start err = %v", err)
	}
}

func TestBrowserLifecycle(t *testing.T) {
	needBrowser(t)
	s, _ := testsites.ByName("bookshop")
	srv := s.NewServer()
	defer srv.Close()

	t.Run("close", func(t *testing.T) {
		b := startBrowser(t, testOptions())
		p, err := NewProber(b, testOptions())
		if err != nil {
			t.Fatal(err)
		}
		pg, err := p.Open(t.Context(), srv.URL+"/")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(pg.HTML, `<form id="search"`) || pg.Status != 200 || pg.URL != srv.URL+"/" {
			t.Errorf("page %s status %d, %d bytes", pg.URL, pg.Status, len(pg.HTML))
		}
		if !strings.Contains(b.UserAgent(), "trawl/") {
			t.Errorf("User-Agent %q does not name trawl", b.UserAgent())
		}
		p.Close()
	})

	t.Run("context end closes the browser", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		b, err := Start(ctx, testOptions())
		if err != nil {
			t.Fatal(err)
		}
		p, _ := NewProber(b, testOptions())
		if _, err := p.Open(ctx, srv.URL+"/"); err != nil {
			t.Fatal(err)
		}
		cancel()
		select {
		case <-b.closed:
		case <-time.After(10 * time.Second):
			t.Fatal("the browser is still open 10 s after its context ended")
		}
		closeAndCheck(t, b)
		if _, err := p.Open(t.Context(), srv.URL+"/"); err == nil {
			t.Error("a closed browser opened a page")
		}
	})

	t.Run("pool replaces broken tabs", func(t *testing.T) {
		b := startBrowser(t, testOptions())
		o := testOptions()
		o.Tabs = 2
		p, _ := NewProber(b, o)
		defer p.Close()
		t1, err := p.pool.acquire(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		t2, err := p.pool.acquire(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		if _, err := p.pool.acquire(ctx); err == nil {
			t.Error("a third tab was handed out with Tabs = 2")
		}
		cancel()
		t1.broken = true
		p.pool.release(t1)
		p.pool.release(t2)
		if n := p.pool.size(); n != 1 {
			t.Errorf("%d tabs open after releasing a broken one, want 1", n)
		}
		t3, err := p.pool.acquire(t.Context())
		if err != nil || t3 != t2 {
			t.Errorf("acquire after release: %v, reused %v", err, t3 == t2)
		}
		p.pool.release(t3)
	})
}

func TestRenderPage(t *testing.T) {
	needBrowser(t)
	s := testsites.Hostile()
	srv := s.NewServer()
	defer srv.Close()
	o := testOptions()
	html, final, err := RenderPage(t.Context(), srv.URL+testsites.HostileJSForm, o)
	if err != nil {
		t.Fatal(err)
	}
	if final != srv.URL+testsites.HostileJSForm || !strings.Contains(html, `action="/js-form/results"`) {
		t.Errorf("final %s; the script-built form is missing from the DOM:\n%s", final, html)
	}
	if _, _, err := RenderPage(t.Context(), "file:///etc/passwd", o); err == nil {
		t.Error("RenderPage accepted a file: URL")
	}
}

// TestSettleLateChanges checks that a page is read after the changes its scripts make
// after the load event, whatever runs them (a script element, an on… attribute, a
// module), and that a page with nothing that could run is taken at its load, without
// the quiet period.
func TestSettleLateChanges(t *testing.T) {
	needBrowser(t)
	// The element's id is built by the script, so that its source never matches.
	late := `setTimeout(function () { var p = document.createElement('p'); p.id = 'la' + 'te'; document.body.appendChild(p); }, 120)`
	pages := map[string]string{
		"/script":  `<html><body><p>x</p><script>window.addEventListener('load', function () { ` + late + ` });</script></body></html>`,
		"/onload":  `<html><body onload="` + strings.ReplaceAll(late, `"`, `&quot;`) + `"><p>x</p></body></html>`,
		"/module":  `<html><body><p>x</p><script type="module">` + late + `</script></body></html>`,
		"/onerror": `<html><body><p>x</p><img src="/missing.png" onerror="` + strings.ReplaceAll(late, `"`, `&quot;`) + `"></body></html>`,
		"/stubs":   `<html><body><p>x</p><script>window.setTimeout = function () {}; window.Promise = function () {};</script></body></html>`,
		"/static":  `<html><head><script type="application/ld+json">{"@type": "Book"}</script></head><body><p>x</p></body></html>`,
	}
	mux := http.NewServeMux()
	for path, body := range pages {
		mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = io.WriteString(w, body)
		})
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	o := testOptions()
	o.Quiet = 900 * time.Millisecond // a third of it (300 ms) is well above the 120 ms of the late change
	o.LoadImages = true              // so that the broken image fires onerror
	b := startBrowser(t, o)
	p, err := NewProber(b, o)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Open(t.Context(), srv.URL+"/static"); err != nil { // warm the tab up
		t.Fatal(err)
	}
	for _, path := range []string{"/script", "/onload", "/module", "/onerror"} {
		pg, err := p.Open(t.Context(), srv.URL+path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !strings.Contains(pg.HTML, `id="late"`) {
			t.Errorf("%s: read before the late change (%v):\n%s", path, pg.Elapsed, pg.HTML)
		}
	}
	// A page that stubs setTimeout and Promise is still read (the wait keeps its own).
	// Without its own timer the wait would hang until its deadline (1.25 s) and retry.
	if pg, err := p.Open(t.Context(), srv.URL+"/stubs"); err != nil {
		t.Errorf("a page that replaces setTimeout and Promise: %v", err)
	} else if pg.Elapsed >= settleWaitMax+time.Second {
		t.Errorf("a page that replaces setTimeout and Promise took %v: the settle wait used the page's timer", pg.Elapsed)
	} else {
		t.Logf("stubs: %v", pg.Elapsed)
	}
	// The static page: read at its load, not after a third of Quiet (300 ms).
	var best time.Duration
	for i := range 3 {
		pg, err := p.Open(t.Context(), srv.URL+"/static")
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 || pg.Elapsed < best {
			best = pg.Elapsed
		}
	}
	if best >= o.Quiet/3 {
		t.Errorf("a page with nothing that could run took %v at best: the quiet period was applied", best)
	}
}
