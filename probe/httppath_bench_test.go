package probe

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/records"
)

// wrapperComparer counts records with a FOREST wrapper, as cmd's comparer does once
// its checks passed.
type wrapperComparer struct{ a *records.Applier }

func (c wrapperComparer) Same(context.Context, Page, Page) (bool, string) { return true, "" }
func (c wrapperComparer) Records(ctx context.Context, pg Page) []string {
	recs, _, err := c.a.Apply(ctx, records.Page{Name: "p", URL: pg.URL, HTML: []byte(pg.HTML)})
	if err != nil {
		return nil
	}
	var xpaths []string
	for _, r := range recs {
		xpaths = append(xpaths, r.XPath)
	}
	return xpaths
}

// BenchmarkHTTPPath measures result pages per second of the bookshop test site read
// four ways, with k = 1 and 2 workers: a plain GET from Go (body read, nothing else);
// the prober's HTTP path as it reads each page of a submission (politeness, the tab's
// headers, charset decoding, the records test and the next link), with the records
// test by the record marker the checks learn (http-path) and by the wrapper
// (http-path-wrapper: the test before the marker, and where no marker holds); and the
// browser (Prober.Open: navigate, settle, read the DOM). One iteration reads 40 pages.
// pages/s is the wall-clock rate over all iterations; cpu-µs/page is the CPU time of
// the test process per page over all iterations: client and the in-process test server
// (for the browser only its Go side: Chromium's processes are not counted).
// paired/workers=1 reads every page by plain GET and by the HTTP path back to back and
// reports the HTTP path's rate as a fraction of the GET's (http/get-rate), which holds
// up on a loaded machine better than two rates measured at different times.
//
//	TRAWL_BROWSER_TESTS=1 [TRAWL_BENCH_LATENCY=100ms] go test ./probe -run '^$' -bench HTTPPath -benchtime 3x
func BenchmarkHTTPPath(b *testing.B) {
	if os.Getenv("TRAWL_BROWSER_TESTS") != "1" {
		b.Skip("browser benchmark: set TRAWL_BROWSER_TESTS=1")
	}
	s, _ := testsites.ByName("bookshop")
	s.SetLatency(benchLatency(b))
	srv := s.NewServer()
	defer srv.Close()
	urls := resultURLs(srv.URL, 40)
	o := DefaultOptions()
	o.Delay, o.Screenshots, o.IgnoreRobots = 0, false, true
	br, err := Start(b.Context(), o)
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	pr, err := NewProber(br, o)
	if err != nil {
		b.Fatal(err)
	}
	defer pr.Close()
	// The wrapper, learnt from three browser pages as the checks would.
	var learn []records.Page
	for i, u := range urls[:3] {
		pg, err := pr.Open(b.Context(), u)
		if err != nil {
			b.Fatal(err)
		}
		learn = append(learn, records.Page{Name: fmt.Sprint(i), URL: pg.URL, HTML: []byte(pg.HTML)})
	}
	w, _, err := records.Extract(b.Context(), learn, records.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	a, err := records.NewApplier(w, records.DefaultApplyOptions())
	if err != nil {
		b.Fatal(err)
	}
	hp := newHTTPPath(pr, wrapperComparer{a}) // tests pages by the wrapper
	hm := newHTTPPath(pr, wrapperComparer{a}) // learns the marker, as the checks do
	for _, u := range urls[:2] {
		pg, err := hm.fetch(b.Context(), u)
		if err != nil {
			b.Fatal(err)
		}
		hm.learnMarker(pg, hm.cmp.Records(b.Context(), pg))
	}
	if hm.marker == "" {
		b.Fatal("no record marker learnt from the bookshop's pages")
	}
	page := func(h *httpPath) func(u string) error {
		return func(u string) error {
			pg, err := h.fetch(b.Context(), u)
			if err != nil {
				return err
			}
			if !h.hasRecords(b.Context(), pg) {
				return fmt.Errorf("%s: no records", u)
			}
			nextLink(pg)
			return nil
		}
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	ways := []struct {
		name  string
		fetch func(u string) error
	}{
		{"plain-get", func(u string) error {
			resp, err := client.Get(u)
			if err != nil {
				return err
			}
			defer func() { _ = resp.Body.Close() }()
			body, err := io.ReadAll(resp.Body)
			if err != nil || !strings.Contains(string(body), "data-record") {
				return fmt.Errorf("GET %s: %v", u, err)
			}
			return nil
		}},
		{"http-path", page(hm)},
		{"http-path-wrapper", page(hp)},
		{"browser", func(u string) error {
			_, err := pr.Open(b.Context(), u)
			return err
		}},
	}
	for _, k := range []int{1, 2} {
		for _, way := range ways {
			b.Run(fmt.Sprintf("%s/workers=%d", way.name, k), func(b *testing.B) {
				cpu0, pages := cpuTime(), 0
				for b.Loop() {
					if _, err := fetchAll(urls, k, way.fetch); err != nil {
						b.Fatal(err)
					}
					pages += len(urls)
				}
				b.ReportMetric(float64(pages)/b.Elapsed().Seconds(), "pages/s")
				b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(pages), "cpu-µs/page")
			})
		}
	}
	// Paired: each page read by a plain GET and by the HTTP path one right after the
	// other (in alternating order), so that both see the same load; the ratio of their
	// summed wall times is the HTTP path's rate as a fraction of the plain GET's.
	b.Run("paired/workers=1", func(b *testing.B) {
		get, path := ways[0].fetch, page(hm)
		var tGet, tPath time.Duration
		timed := func(f func(string) error, u string, sum *time.Duration) {
			start := time.Now()
			if err := f(u); err != nil {
				b.Fatal(err)
			}
			*sum += time.Since(start)
		}
		for b.Loop() {
			for i, u := range urls {
				if i%2 == 0 {
					timed(get, u, &tGet)
					timed(path, u, &tPath)
				} else {
					timed(path, u, &tPath)
					timed(get, u, &tGet)
				}
			}
		}
		b.ReportMetric(tGet.Seconds()/tPath.Seconds(), "http/get-rate")
	})
}

// BenchmarkNextLink measures finding the next link of a bookshop result page (the
// HTTP path does it for every page it reads), against parsing the whole document.
//
//	go test ./probe -run '^$' -bench NextLink -benchmem
func BenchmarkNextLink(b *testing.B) {
	s, _ := testsites.ByName("bookshop")
	srv := s.NewServer()
	defer srv.Close()
	u := resultURLs(srv.URL, 1)[0]
	resp, err := http.Get(u)
	if err != nil {
		b.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	pg := Page{URL: u, HTML: string(body)}
	want, ok := nextLinkParsed(pg)
	if !ok {
		b.Fatalf("%s has no next link", u)
	}
	b.Logf("%d bytes, %d links", len(body), strings.Count(pg.HTML, "<a "))
	for _, way := range []struct {
		name string
		f    func(Page) (string, bool)
	}{{"scan", nextLink}, {"parse", nextLinkParsed}} {
		b.Run(way.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if got, _ := way.f(pg); got != want {
					b.Fatalf("next link %q, want %q", got, want)
				}
			}
		})
	}
}
