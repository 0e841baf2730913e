package probe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/internal/testsites"
)

// memRecorder keeps probes in memory.
type memRecorder struct {
	probes []Probe
	pages  [][]Page
}

func (m *memRecorder) AddProbe(p Probe, pages []Page) (Probe, error) {
	for k, pg := range pages {
		p.Pages = append(p.Pages, PageRef{File: fmt.Sprintf("mem-%d-%d", p.N, k+1), URL: pg.URL, Status: pg.Status, Bytes: len(pg.HTML)})
	}
	m.probes = append(m.probes, p)
	m.pages = append(m.pages, pages)
	return p, nil
}

func TestRunWritesTheRunDirectory(t *testing.T) {
	needBrowser(t)
	b := startBrowser(t, testOptions())
	for _, name := range []string{"bookshop", "films"} {
		t.Run(name, func(t *testing.T) {
			s, _ := testsites.ByName(name)
			srv := s.NewServer()
			defer srv.Close()
			o := testOptions()
			o.MaxPagesPerProbe = 2
			p, err := NewProber(b, o)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			f := discoverSite(t, p, s, srv.URL)
			po := DefaultPlanOptions()
			po.MaxProbes = 10
			plan := AgnosticPlan(f, po)
			dir := filepath.Join(t.TempDir(), Source(f.PageURL))
			rd, err := CreateRunDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := rd.WriteForm(f); err != nil {
				t.Fatal(err)
			}
			png, err := p.FormScreenshot(t.Context(), f)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(png, []byte("\x89PNG")) {
				t.Error("the form screenshot is not a PNG")
			}
			sum, err := p.Run(t.Context(), f, plan, rd)
			if err != nil {
				t.Fatal(err)
			}
			if err := rd.Close(); err != nil {
				t.Fatal(err)
			}
			if sum.Probes != len(plan) || sum.Failed != 0 {
				t.Errorf("summary %+v for a plan of %d", sum, len(plan))
			}
			probes, err := ReadProbes(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(probes) != len(plan) {
				t.Fatalf("%d probes in probes.jsonl, want %d", len(probes), len(plan))
			}
			distinct := map[string]bool{}
			shots := 0
			for i, pr := range probes {
				if pr.N != i+1 || pr.Kind != plan[i].Kind {
					t.Errorf("probe %d: n %d kind %s, want %s", i+1, pr.N, pr.Kind, plan[i].Kind)
				}
				if pr.Error != "" || len(pr.Pages) == 0 || pr.Duration <= 0 || pr.Started.IsZero() {
					t.Errorf("probe %d: error %q, %d pages, duration %v", pr.N, pr.Error, len(pr.Pages), pr.Duration)
				}
				if pr.Navigated == s.Has(testsites.FeatureAJAX) {
					t.Errorf("probe %d: navigated %v", pr.N, pr.Navigated)
				}
				for _, ref := range pr.Pages {
					html, err := os.ReadFile(filepath.Join(dir, ref.File))
					if err != nil || len(html) != ref.Bytes {
						t.Fatalf("page %s: %d bytes, ref says %d (%v)", ref.File, len(html), ref.Bytes, err)
					}
					for _, id := range recordIDs(string(html)) {
						distinct[id] = true
					}
					if ref.Screenshot != "" {
						shots++
						img, err := os.ReadFile(filepath.Join(dir, ref.Screenshot))
						if err != nil || !bytes.HasPrefix(img, []byte("\x89PNG")) {
							t.Errorf("screenshot %s: %v", ref.Screenshot, err)
						}
					}
				}
				for name, v := range pr.Assignment {
					if fd, _ := fieldByName(f, name); fillKind(fd) == "text" && v != "" && !strings.Contains(strings.Join(pr.Terms, " "), v) {
						t.Errorf("probe %d: typed %q but terms are %v", pr.N, v, pr.Terms)
					}
				}
				if pr.Kind == KindNonsense && len(recordIDs(mustRead(t, dir, pr.Pages[0].File))) != 0 {
					t.Errorf("the nonsense probe found records")
				}
			}
			if shots != 1 {
				t.Errorf("%d result-page screenshots, want 1", shots)
			}
			if len(distinct) < 30 {
				t.Errorf("10 probes reached only %d distinct records", len(distinct))
			}
			if v := s.Violations(); len(v) != 0 {
				t.Errorf("violations: %v", v)
			}
		})
	}
}

func mustRead(t *testing.T, dir, file string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// interruptAfterFirst records probes in a run directory and cancels the run once the
// first probe without an error is recorded, sending the moment on at.
type interruptAfterFirst struct {
	*RunDir
	cancel context.CancelFunc
	at     chan time.Time // buffered: the one moment
	once   sync.Once
}

func (r *interruptAfterFirst) AddProbe(p Probe, pages []Page) (Probe, error) {
	pr, err := r.RunDir.AddProbe(p, pages)
	if err == nil && p.Error == "" {
		r.once.Do(func() { r.at <- time.Now(); r.cancel() })
	}
	return pr, err
}

// TestRunInterrupted cancels a run: it returns at once with context.Canceled, the
// probes done so far are on disk, and the browser (bound to the same context) is gone.
// The interrupt comes once a probe is done (not at a fixed time, which a busy machine
// could reach before the first probe), and the run must return within 5.5 s of it.
func TestRunInterrupted(t *testing.T) {
	needBrowser(t)
	s, _ := testsites.ByName("bookshop")
	s.SetLatency(150 * time.Millisecond)
	srv := s.NewServer()
	defer srv.Close()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	o := testOptions()
	b, err := Start(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer closeAndCheck(t, b)
	p, _ := NewProber(b, o)
	f := discoverSite(t, p, s, srv.URL)
	po := DefaultPlanOptions()
	po.MaxProbes = 30
	dir := t.TempDir()
	rd, err := CreateRunDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	rec := &interruptAfterFirst{RunDir: rd, cancel: cancel, at: make(chan time.Time, 1)}
	sum, err := p.Run(ctx, f, AgnosticPlan(f, po), rec)
	returned := time.Now()
	if cerr := rd.Close(); cerr != nil {
		t.Fatal(cerr)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run err = %v, want context.Canceled", err)
	}
	select {
	case at := <-rec.at:
		if d := returned.Sub(at); d > 5500*time.Millisecond {
			t.Errorf("Run returned %v after the interrupt", d)
		}
	default:
		t.Error("the run ended without a probe done, so without the interrupt")
	}
	probes, rerr := ReadProbes(dir)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if len(probes) == 0 || len(probes) != sum.Probes || sum.Stopped != "interrupted" {
		t.Errorf("%d probes on disk, summary %+v", len(probes), sum)
	}
	done := 0
	for _, pr := range probes {
		if pr.Error == "" {
			done++
		}
	}
	if done == 0 {
		t.Error("no probe completed before the interrupt")
	}
	select {
	case <-b.closed:
	case <-time.After(5 * time.Second):
		t.Error("the browser is still open after the interrupt")
	}
}

// TestHarvest: with Harvest, the last third of MaxProbes queries words of the result
// pages not queried before; when the harvest finds none, the rest of the plan fills the
// budget.
func TestHarvest(t *testing.T) {
	needBrowser(t)
	b := startBrowser(t, testOptions())
	s, _ := testsites.ByName("bookshop")
	srv := s.NewServer()
	defer srv.Close()
	for _, tc := range []struct {
		maxProbes     int
		wantHarvested bool
		wantAllProbes bool
	}{{12, true, true}, {4, false, true}} {
		t.Run(fmt.Sprint(tc.maxProbes), func(t *testing.T) {
			o := testOptions()
			o.Harvest = true
			o.MaxProbes = tc.maxProbes
			o.MaxPagesPerProbe = 1
			p, _ := NewProber(b, o)
			defer p.Close()
			f := discoverSite(t, p, s, srv.URL)
			po := DefaultPlanOptions()
			po.MaxProbes = tc.maxProbes
			plan := AgnosticPlan(f, po)
			rec := &memRecorder{}
			sum, err := p.Run(t.Context(), f, plan, rec)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Probes != tc.maxProbes || sum.Failed != 0 {
				t.Errorf("summary %+v, want %d probes", sum, tc.maxProbes)
			}
			if (sum.Harvested > 0) != tc.wantHarvested {
				t.Errorf("%d harvested probes", sum.Harvested)
			}
			used := map[string]bool{}
			for _, a := range plan {
				used[a.Values["q"]] = true
			}
			harvested := 0
			for _, pr := range rec.probes {
				if pr.Kind != KindHarvest {
					continue
				}
				harvested++
				w := pr.Assignment["q"]
				if used[w] || isStop(w) || len(w) < 3 {
					t.Errorf("harvested word %q was planned already, or is a stop word", w)
				}
				used[w] = true
			}
			if harvested != sum.Harvested {
				t.Errorf("%d harvest probes recorded, summary says %d", harvested, sum.Harvested)
			}
		})
	}
}
