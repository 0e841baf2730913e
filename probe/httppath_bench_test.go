package probe

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/records"
)

// wrapperComparer counts records with a FOREST wrapper, as cmd's comparer does once
// its checks passed.
type wrapperComparer struct{ a *records.Applier }

func (c wrapperComparer) Same(context.Context, Page, Page) (bool, string) { return true, "" }
func (c wrapperComparer) Records(ctx context.Context, pg Page) int {
	recs, _, err := c.a.Apply(ctx, records.Page{Name: "p", URL: pg.URL, HTML: []byte(pg.HTML)})
	if err != nil {
		return 0
	}
	return len(recs)
}

// BenchmarkHTTPPath measures result pages per second of the bookshop test site read
// three ways, with k = 1 and 2 workers: a plain GET from Go (body read, nothing
// else), the prober's HTTP path (politeness, the tab's headers, charset decoding and
// the records check with the learnt wrapper) and the browser (Prober.Open: navigate,
// settle, read the DOM). One iteration reads 40 pages.
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
	hp := newHTTPPath(pr, wrapperComparer{a})
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
		{"http-path", func(u string) error {
			pg, err := hp.fetch(b.Context(), u)
			if err != nil {
				return err
			}
			if hp.cmp.Records(b.Context(), pg) == 0 {
				return fmt.Errorf("%s: no records", u)
			}
			return nil
		}},
		{"browser", func(u string) error {
			_, err := pr.Open(b.Context(), u)
			return err
		}},
	}
	for _, k := range []int{1, 2} {
		for _, way := range ways {
			b.Run(fmt.Sprintf("%s/workers=%d", way.name, k), func(b *testing.B) {
				var rate float64
				for b.Loop() {
					r, err := fetchAll(urls, k, way.fetch)
					if err != nil {
						b.Fatal(err)
					}
					rate = r
				}
				b.ReportMetric(rate, "pages/s")
			})
		}
	}
}
