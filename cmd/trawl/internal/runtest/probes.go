package runtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/probe"
)

// BookshopProbes probes the bookshop test site over plain HTTP (its pages are rendered on
// the server) and writes a run directory the way the prober does: probes.jsonl and
// pages/NNNN-K.html, markers stripped; queries gives the kind of each query (life, love,
// dead, the, qzxwvkjptr). It returns the number of records on the pages.
func BookshopProbes(t testing.TB, dir string, queries map[string]string) int {
	t.Helper()
	srv := BookshopSite(t).NewServer()
	defer srv.Close()
	if err := os.MkdirAll(filepath.Join(dir, rundir.PagesDir), 0o755); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	want := 0
	n := 0
	for _, q := range []string{"life", "love", "dead", "the", "qzxwvkjptr"} {
		n++
		u := srv.URL + "/search?" + url.Values{"q": {q}}.Encode()
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		want += strings.Count(string(b), testsites.RecordAttr+"=")
		file := fmt.Sprintf("%s/%04d-1.html", rundir.PagesDir, n)
		if err := os.WriteFile(filepath.Join(dir, file), []byte(testsites.StripMarkers(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
		kind := queries[q]
		p := probe.Probe{N: n, Kind: kind, Assignment: map[string]string{"q": q}, Terms: []string{q}, URL: u,
			Status: 200, Navigated: true, Pages: []probe.PageRef{{File: file, URL: u, Status: 200, Bytes: len(b)}}}
		line, _ := json.Marshal(p)
		log.Write(append(line, '\n'))
	}
	if err := os.WriteFile(filepath.Join(dir, rundir.ProbesFile), log.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return want
}

// NeedBrowser skips a test unless TRAWL_BROWSER_TESTS is set, and fails it when it is
// set but Chromium cannot be found.
func NeedBrowser(t testing.TB) {
	t.Helper()
	if os.Getenv("TRAWL_BROWSER_TESTS") == "" {
		t.Skip("set TRAWL_BROWSER_TESTS=1 (and install chromium) to run the pipeline in a real browser")
	}
	if _, err := probe.FindChrome(""); err != nil {
		t.Fatalf("TRAWL_BROWSER_TESTS is set but: %v", err)
	}
}
