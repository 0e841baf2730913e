package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/probe"
)

func testProbeOptions(t *testing.T, url string) probeOptions {
	o := probeOptions{URL: url, Out: t.TempDir(), Probe: probe.DefaultOptions()}
	o.Probe.Delay = 0
	o.Probe.StepTimeout = 15 * time.Second
	o.Probe.SettleTimeout = 3 * time.Second
	o.Probe.MaxProbes = 6
	o.Probe.MaxPagesPerProbe = 2
	o.NoHarvest = true // the tests count probes
	return o
}

func TestRunProbeUsage(t *testing.T) {
	for _, u := range []string{"ftp://example.org/", "not a url", "file:///etc/passwd"} {
		err := runProbe(t.Context(), globalOptions{stderr: &bytes.Buffer{}}, testProbeOptions(t, u), &bytes.Buffer{})
		if code := exitCode(err, &bytes.Buffer{}); code != exitUsage {
			t.Errorf("%q: exit %d (%v), want %d", u, code, err, exitUsage)
		}
	}
}

func TestRunProbe(t *testing.T) {
	if os.Getenv("TRAWL_BROWSER_TESTS") != "1" {
		t.Skip("browser test: set TRAWL_BROWSER_TESTS=1 (and install chromium) to run it")
	}
	t.Run("search form", func(t *testing.T) {
		s, _ := testsites.ByName("bookshop")
		srv := s.NewServer()
		defer srv.Close()
		o := testProbeOptions(t, srv.URL+s.FormPath)
		o.JSON = true
		var stdout, stderr bytes.Buffer
		if err := runProbe(t.Context(), globalOptions{stderr: &stderr}, o, &stdout); err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
		var sum struct {
			Dir    string `json:"dir"`
			Probes int    `json:"probes"`
			Pages  int    `json:"pages"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
			t.Fatalf("stdout is not the JSON summary: %v: %q", err, stdout.String())
		}
		if sum.Probes != 6 || sum.Pages < 6 || sum.Dir != filepath.Join(o.Out, probe.Source(o.URL)) {
			t.Errorf("summary %+v", sum)
		}
		for _, f := range []string{probe.FormFile, probe.ProbesFile, probe.FormPNG, "probe-run.json"} {
			if _, err := os.Stat(filepath.Join(sum.Dir, f)); err != nil {
				t.Errorf("missing %s: %v", f, err)
			}
		}
		if _, err := probe.ReadForm(sum.Dir); err != nil {
			t.Error(err)
		}
		if ps, err := probe.ReadProbes(sum.Dir); err != nil || len(ps) != 6 {
			t.Errorf("probes.jsonl: %d probes, %v", len(ps), err)
		}
	})
	t.Run("explicit plan", func(t *testing.T) {
		s, _ := testsites.ByName("advanced")
		srv := s.NewServer()
		defer srv.Close()
		o := testProbeOptions(t, srv.URL+s.FormPath)
		// The trained classifier (h/forms 51dd17d) classifies this advanced search form
		// "other"; naming it tests the explicit plan, not the classifier.
		o.Probe.ForceForm = "0"
		o.PlanFile = filepath.Join(t.TempDir(), "plan.json")
		if err := os.WriteFile(o.PlanFile, []byte(`{"author": ["Tolkien", "Austen"], "language": ["English"]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := runProbe(t.Context(), globalOptions{stderr: &bytes.Buffer{}}, o, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		ps, err := probe.ReadProbes(filepath.Join(o.Out, rundir.Name(o.URL, o.Probe.ForceForm)))
		if err != nil || len(ps) != 3 || ps[0].Kind != probe.KindPlan || ps[0].Assignment["author"] != "Tolkien" {
			t.Errorf("probes %+v, %v", ps, err)
		}
		o.PlanFile = filepath.Join(t.TempDir(), "bad.json")
		if err := os.WriteFile(o.PlanFile, []byte(`{"publisher": ["x"]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		err = runProbe(t.Context(), globalOptions{stderr: &bytes.Buffer{}}, o, &bytes.Buffer{})
		if code := exitCode(err, &bytes.Buffer{}); code != exitUsage || !strings.Contains(err.Error(), `"publisher"`) {
			t.Errorf("unknown plan field: exit %d, %v", code, err)
		}
	})
	refused := []struct {
		name string
		site *testsites.Site
		path string
		msg  string
	}{
		{"only a login form", testsites.Hostile(), testsites.HostileLoginOnly, "none of the 2 forms"},
		{"POST without --allow-post", mustSite("library"), "/", "--allow-post"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			srv := tc.site.NewServer()
			defer srv.Close()
			o := testProbeOptions(t, srv.URL+tc.path)
			err := runProbe(t.Context(), globalOptions{stderr: &bytes.Buffer{}}, o, &bytes.Buffer{})
			var msg bytes.Buffer
			if code := exitCode(err, &msg); code != exitRefused || !strings.Contains(msg.String(), tc.msg) {
				t.Errorf("exit %d, message %q; want %d with %q", code, msg.String(), exitRefused, tc.msg)
			}
			if v := tc.site.Violations(); len(v) != 0 {
				t.Errorf("violations: %v", v)
			}
		})
	}
}

func mustSite(name string) *testsites.Site {
	s, err := testsites.ByName(name)
	if err != nil {
		panic(err)
	}
	return s
}
