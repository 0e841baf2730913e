package probe

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/internal/testsites"
)

// benchLatency is the simulated backend time of the bench site
// (TRAWL_BENCH_LATENCY, default 0).
func benchLatency(b *testing.B) time.Duration {
	v := os.Getenv("TRAWL_BENCH_LATENCY")
	if v == "" {
		return 0
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		b.Fatalf("TRAWL_BENCH_LATENCY: %v", err)
	}
	return d
}

// resultURLs returns n result-page URLs of the bookshop site: queries of stop words
// and letters, pages 1–5.
func resultURLs(base string, n int) []string {
	var urls []string
	for _, q := range []string{"the", "a", "e", "s", "of", "and", "o", "i"} {
		for p := 1; p <= 5; p++ {
			urls = append(urls, base+"/search?"+url.Values{"q": {q}, "page": {fmt.Sprint(p)}}.Encode())
		}
	}
	return urls[:n]
}

// fetchAll fetches every URL with k workers and returns the pages per second.
func fetchAll(urls []string, k int, fetch func(u string) error) (float64, error) {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		ferr error
		next int
	)
	start := time.Now()
	for range k {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(urls) || ferr != nil {
					return
				}
				if err := fetch(urls[i]); err != nil {
					mu.Lock()
					ferr = err
					mu.Unlock()
					return
				}
			}
		})
	}
	wg.Wait()
	return float64(len(urls)) / time.Since(start).Seconds(), ferr
}

// BenchmarkResultPages measures result pages per second read by the browser (open,
// settle, read the DOM) with 1, 2 and 4 tabs, against a plain HTTP GET of the same URLs
// from Go with as many workers. One iteration reads 40 pages of the bookshop test site.
//
//	TRAWL_BROWSER_TESTS=1 [TRAWL_BENCH_LATENCY=100ms] go test ./probe -run '^$' -bench ResultPages -benchtime 3x
func BenchmarkResultPages(b *testing.B) {
	if os.Getenv("TRAWL_BROWSER_TESTS") != "1" {
		b.Skip("browser benchmark: set TRAWL_BROWSER_TESTS=1")
	}
	s, _ := testsites.ByName("bookshop")
	s.SetLatency(benchLatency(b))
	srv := s.NewServer()
	defer srv.Close()
	benchPages(b, resultURLs(srv.URL, 40), "data-record", false)
}

// BenchmarkResultPagesCalibre is BenchmarkResultPages on the calibre content server
// (a real application, 50–300 ms per query), when it runs.
//
//	TRAWL_BROWSER_TESTS=1 go test ./probe -run '^$' -bench ResultPagesCalibre -benchtime 2x
func BenchmarkResultPagesCalibre(b *testing.B) {
	if os.Getenv("TRAWL_BROWSER_TESTS") != "1" {
		b.Skip("browser benchmark: set TRAWL_BROWSER_TESTS=1")
	}
	base := calibreURL()
	if resp, err := http.Get(base); err != nil {
		b.Skipf("calibre is not running at %s: %v", base, err)
	} else {
		_ = resp.Body.Close()
	}
	var urls []string
	for _, q := range []string{"the", "a", "e", "s", "of", "and", "o", "i"} {
		for start := 1; start <= 101; start += 25 {
			urls = append(urls, base+"?"+url.Values{"search": {q}, "num": {"25"}, "start": {fmt.Sprint(start)}, "library_id": {"library"}}.Encode())
		}
	}
	benchPages(b, urls[:40], `class="first-line"`, true)
}

func benchPages(b *testing.B, urls []string, marker string, ignoreRobots bool) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	plain := func(u string) error {
		resp, err := client.Get(u)
		if err != nil {
			return err
		}
		defer func() { _ = resp.Body.Close() }()
		body, err := io.ReadAll(resp.Body)
		if err != nil || !strings.Contains(string(body), marker) {
			return fmt.Errorf("GET %s: %v (%d bytes)", u, err, len(body))
		}
		return nil
	}
	o := DefaultOptions()
	o.Delay = 0
	o.Screenshots = false
	o.IgnoreRobots = ignoreRobots
	br, err := Start(b.Context(), o)
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	for _, k := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("plain-get/workers=%d", k), func(b *testing.B) {
			var rate float64
			for b.Loop() {
				r, err := fetchAll(urls, k, plain)
				if err != nil {
					b.Fatal(err)
				}
				rate += r
			}
			b.ReportMetric(rate/float64(b.N), "pages/s")
		})
		b.Run(fmt.Sprintf("browser/tabs=%d", k), func(b *testing.B) {
			po := o
			po.Tabs = k
			p, err := NewProber(br, po)
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			// Open the tabs before timing.
			if _, err := fetchAll(urls[:k], k, func(u string) error { _, err := p.Open(b.Context(), u); return err }); err != nil {
				b.Fatal(err)
			}
			var rate float64
			for b.Loop() {
				r, err := fetchAll(urls, k, func(u string) error {
					pg, err := p.Open(b.Context(), u)
					if err == nil && !strings.Contains(pg.HTML, marker) {
						err = fmt.Errorf("%s: no records", u)
					}
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
				rate += r
			}
			b.ReportMetric(rate/float64(b.N), "pages/s")
		})
	}
}

// BenchmarkProbeRun measures whole probes per second (open the form page, fill, submit,
// wait, read the first result page) with 1, 2 and 4 tabs.
//
//	TRAWL_BROWSER_TESTS=1 go test ./probe -run '^$' -bench ProbeRun -benchtime 2x
func BenchmarkProbeRun(b *testing.B) {
	if os.Getenv("TRAWL_BROWSER_TESTS") != "1" {
		b.Skip("browser benchmark: set TRAWL_BROWSER_TESTS=1")
	}
	s, _ := testsites.ByName("bookshop")
	s.SetLatency(benchLatency(b))
	srv := s.NewServer()
	defer srv.Close()
	o := DefaultOptions()
	o.Delay = 0
	o.Screenshots = false
	o.MaxPagesPerProbe = 1
	br, err := Start(b.Context(), o)
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	p0, _ := NewProber(br, o)
	f := discoverSite(b, p0, s, srv.URL)
	p0.Close()
	var plan Plan
	for _, q := range []string{"the", "a", "e", "s", "of", "and", "o", "i", "love", "war", "night", "king"} {
		plan = append(plan, Assignment{Kind: KindPlan, Values: map[string]string{"q": q}})
	}
	for _, k := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("tabs=%d", k), func(b *testing.B) {
			po := o
			po.Tabs = k
			p, _ := NewProber(br, po)
			defer p.Close()
			var rate float64
			for b.Loop() {
				start := time.Now()
				sum, err := p.Run(b.Context(), f, plan, &memRecorder{})
				if err != nil || sum.Failed > 0 {
					b.Fatalf("%+v %v", sum, err)
				}
				rate += float64(sum.Probes) / time.Since(start).Seconds()
			}
			b.ReportMetric(rate/float64(b.N), "probes/s")
		})
	}
}

// BenchmarkCoverage runs the agnostic plan (then harvested words, unless
// TRAWL_BENCH_HARVEST=0) on a test site (TRAWL_BENCH_SITE, default catalogue) and
// reports the distinct records seen (by the answer-key markers) after 5, 10, 20 and 40
// probes; -v prints the whole curve.
//
//	TRAWL_BROWSER_TESTS=1 go test ./probe -run '^$' -bench Coverage -benchtime 1x -v
func BenchmarkCoverage(b *testing.B) {
	if os.Getenv("TRAWL_BROWSER_TESTS") != "1" {
		b.Skip("browser benchmark: set TRAWL_BROWSER_TESTS=1")
	}
	site := os.Getenv("TRAWL_BENCH_SITE")
	if site == "" {
		site = "catalogue"
	}
	s, err := testsites.ByName(site)
	if err != nil {
		b.Fatal(err)
	}
	srv := s.NewServer()
	defer srv.Close()
	o := DefaultOptions()
	o.Delay = 0
	o.Screenshots = false
	o.MaxPagesPerProbe = 3
	o.MaxPages = 1000
	o.AllowPOST = true
	o.Harvest = os.Getenv("TRAWL_BENCH_HARVEST") != "0"
	br, err := Start(b.Context(), o)
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	p, _ := NewProber(br, o)
	defer p.Close()
	f := discoverSite(b, p, s, srv.URL)
	po := DefaultPlanOptions()
	po.Seed = 1
	po.MaxProbes = o.MaxProbes // with harvesting, Run holds back the last third
	plan := AgnosticPlan(f, po)
	for b.Loop() {
		rec := &memRecorder{}
		if _, err := p.Run(b.Context(), f, plan, rec); err != nil {
			b.Fatal(err)
		}
		seen := map[string]bool{}
		curve := make([]int, len(rec.probes)+1)
		byN := map[int]int{}
		for i, pr := range rec.probes {
			byN[pr.N] = i
		}
		var lines []string
		for n := 1; n <= len(rec.probes); n++ {
			i := byN[n]
			for _, pg := range rec.pages[i] {
				for _, id := range recordIDs(pg.HTML) {
					seen[id] = true
				}
			}
			curve[n] = len(seen)
			pr := rec.probes[i]
			lines = append(lines, fmt.Sprintf("%3d %-9s %-28s pages=%d distinct=%d", n, pr.Kind, fmt.Sprint(pr.Assignment), len(rec.pages[i]), len(seen)))
		}
		b.Logf("coverage of %s (%d records in the catalogue, %d per page, up to %d pages per probe):\n%s",
			s.Name, len(s.Records), s.PageSize, o.MaxPagesPerProbe, strings.Join(lines, "\n"))
		for _, at := range []int{5, 10, 20, 40} {
			if at < len(curve) {
				b.ReportMetric(float64(curve[at]), fmt.Sprintf("records@%d", at))
			}
		}
	}
}
