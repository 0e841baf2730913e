package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/runtest"
	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/probe"
)

// runHTTPPages runs the agnostic round on a test site, with or without the HTTP path,
// and returns the run directory.
func runHTTPPages(t *testing.T, srvURL string, httpPages bool) string {
	t.Helper()
	o := runOptions{Out: t.TempDir(), Format: "nt", pipeline: pipeline.DefaultOptions()}
	o.pipeline.URL = srvURL + "/"
	o.pipeline.Probe.MaxProbes, o.pipeline.Probe.MaxPagesPerProbe = 8, 2
	o.pipeline.Probe.Delay, o.pipeline.Probe.IgnoreRobots = 0, true
	o.pipeline.Rounds, o.pipeline.Resubmit, o.pipeline.NoReport = 0, false, true
	o.pipeline.HTTPPages = httpPages
	if err := runRun(t.Context(), globalOptions{Quiet: true}, o, &strings.Builder{}); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(o.Out, probe.Source(o.pipeline.URL))
}

// via counts the pages of a run directory by how they were fetched.
func via(t *testing.T, dir string) map[string]int {
	t.Helper()
	probes, err := probe.ReadProbes(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, p := range probes {
		for _, pg := range p.Pages {
			n[pg.Via]++
		}
	}
	return n
}

// TestHTTPPages: on a static GET site the HTTP path takes over after its checks and
// the records are those of the browser-only run; on a site whose results are rendered
// by scripts without navigation every page stays the browser's.
func TestHTTPPages(t *testing.T) {
	runtest.NeedBrowser(t)
	site, _ := testsites.ByName("bookshop")
	srv := httptest.NewServer(site.Handler)
	defer srv.Close()
	browserOnly := runHTTPPages(t, srv.URL, false)
	withHTTP := runHTTPPages(t, srv.URL, true)
	n := via(t, withHTTP)
	if n[probe.ViaHTTP] == 0 || n[probe.ViaBrowser] == 0 {
		t.Errorf("bookshop pages by way: %v; want the first ones by browser, later ones over HTTP", n)
	}
	read := func(dir string) []string {
		b, err := os.ReadFile(filepath.Join(dir, "records.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		slices.Sort(lines)
		return lines
	}
	if a, b := read(browserOnly), read(withHTTP); !slices.Equal(a, b) {
		t.Errorf("records differ: %d in the browser-only run, %d with HTTP pages", len(a), len(b))
	}
	t.Logf("bookshop pages: %v", n)

	films, _ := testsites.ByName("films")
	fsrv := httptest.NewServer(films.Handler)
	defer fsrv.Close()
	fdir := runHTTPPages(t, fsrv.URL, true)
	if n := via(t, fdir); n[probe.ViaHTTP] > 0 {
		t.Errorf("films (results rendered by scripts): %v pages over HTTP, want none", n)
	}
}
