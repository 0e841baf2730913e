package probe

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/trawl-dev/trawl/internal/rundir"
)

// The files of a probe run directory (internal/rundir owns their names).
const (
	FormFile   = rundir.FormFile
	ProbesFile = rundir.ProbesFile
	PagesDir   = rundir.PagesDir
	FormPNG    = rundir.FormPNG
)

// Source returns the directory name of the run of a form page (rundir.Name): its host
// (with the port), path and query. "http://127.0.0.1:18082/mobile" →
// "127-0-0-1-18082-mobile".
func Source(pageURL string) string { return rundir.Name(pageURL, "") }

// RunDir writes the probe stage of a run directory: form.json, probes.jsonl (one
// line per probe, flushed to disk as each probe ends) and pages/ (the DOM of each
// result page, and PNG screenshots). It is safe for concurrent use.
type RunDir struct {
	dir    string
	probes *rundir.Log
}

// CreateRunDir creates (or empties the probe files of) the directory dir and opens its
// probe log. An earlier run's probes.jsonl and pages/ are removed: a run directory
// holds one run.
func CreateRunDir(dir string) (*RunDir, error) {
	if err := os.MkdirAll(filepath.Join(dir, PagesDir), 0o755); err != nil {
		return nil, fmt.Errorf("probe: create the run directory: %w", err)
	}
	old, err := os.ReadDir(filepath.Join(dir, PagesDir))
	if err != nil {
		return nil, fmt.Errorf("probe: read %s: %w", filepath.Join(dir, PagesDir), err)
	}
	for _, e := range old {
		if n := e.Name(); strings.HasSuffix(n, ".html") || strings.HasSuffix(n, ".png") {
			if err := os.Remove(filepath.Join(dir, PagesDir, n)); err != nil {
				return nil, fmt.Errorf("probe: clear the old pages: %w", err)
			}
		}
	}
	log, err := rundir.CreateLog(filepath.Join(dir, ProbesFile))
	if err != nil {
		return nil, fmt.Errorf("probe: %w", err)
	}
	return &RunDir{dir: dir, probes: log}, nil
}

// ResumeRunDir opens the run directory dir to add probes after kept, probes of an
// interrupted run that are to stay: probes.jsonl is rewritten (atomically) to hold
// exactly kept, the page files of pages/ that no kept probe names are removed, and
// AddProbe appends after them. A run killed at any moment leaves a probe log whose
// probes all have their pages.
func ResumeRunDir(dir string, kept []Probe) (*RunDir, error) {
	names := map[string]bool{}
	for _, p := range kept {
		for _, ref := range p.Pages {
			names[filepath.Base(ref.File)] = true
			if ref.Screenshot != "" {
				names[filepath.Base(ref.Screenshot)] = true
			}
		}
	}
	if err := rundir.WriteJSONL(filepath.Join(dir, ProbesFile), kept); err != nil {
		return nil, fmt.Errorf("probe: keep the finished probes: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, PagesDir), 0o755); err != nil {
		return nil, fmt.Errorf("probe: create the run directory: %w", err)
	}
	old, err := os.ReadDir(filepath.Join(dir, PagesDir))
	if err != nil {
		return nil, fmt.Errorf("probe: read %s: %w", filepath.Join(dir, PagesDir), err)
	}
	for _, e := range old {
		if n := e.Name(); (strings.HasSuffix(n, ".html") || strings.HasSuffix(n, ".png")) && !names[n] {
			if err := os.Remove(filepath.Join(dir, PagesDir, n)); err != nil {
				return nil, fmt.Errorf("probe: clear the pages of unfinished probes: %w", err)
			}
		}
	}
	log, err := rundir.AppendLog(filepath.Join(dir, ProbesFile))
	if err != nil {
		return nil, fmt.Errorf("probe: %w", err)
	}
	return &RunDir{dir: dir, probes: log}, nil
}

// Dir returns the run directory's path.
func (d *RunDir) Dir() string { return d.dir }

// WriteFile writes a file of the run directory atomically (rundir.WriteFile).
func (d *RunDir) WriteFile(name string, data []byte) error {
	if err := rundir.WriteFile(filepath.Join(d.dir, name), data); err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	return nil
}

// WriteJSON writes v as indented JSON to a file of the run directory.
func (d *RunDir) WriteJSON(name string, v any) error {
	if err := rundir.WriteJSON(filepath.Join(d.dir, name), v); err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	return nil
}

// WriteForm writes form.json.
func (d *RunDir) WriteForm(f Form) error { return d.WriteJSON(FormFile, f) }

// AddProbe saves the probe's pages as pages/NNNN-K.html (and .png screenshots), fills
// in p.Pages, and appends p to probes.jsonl, synced to disk.
func (d *RunDir) AddProbe(p Probe, pages []Page) (Probe, error) {
	p.Pages = nil
	for k, pg := range pages {
		base := fmt.Sprintf("%s/%04d-%d", PagesDir, p.N, k+1)
		if err := d.WriteFile(base+".html", []byte(pg.HTML)); err != nil {
			return p, err
		}
		ref := PageRef{File: base + ".html", URL: pg.URL, Status: pg.Status, Bytes: len(pg.HTML), Elapsed: pg.Elapsed, Via: cmp.Or(pg.Via, ViaBrowser)}
		if len(pg.Screenshot) > 0 {
			if err := d.WriteFile(base+".png", pg.Screenshot); err != nil {
				return p, err
			}
			ref.Screenshot = base + ".png"
		}
		p.Pages = append(p.Pages, ref)
	}
	if p.Pages == nil {
		p.Pages = []PageRef{}
	}
	if err := d.probes.Append(p); err != nil {
		return p, fmt.Errorf("probe: %w", err)
	}
	return p, nil
}

// Close closes the probe log.
func (d *RunDir) Close() error { return d.probes.Close() }

// ReadForm reads form.json of a run directory.
func ReadForm(dir string) (Form, error) { return rundir.ReadForm(dir) }

// ProbeLineError locates a bad line of probes.jsonl (rundir.LineError).
type ProbeLineError = rundir.LineError

// ReadProbes reads probes.jsonl of a run directory, ordered by probe number. A bad line
// gives a *ProbeLineError with its line number.
func ReadProbes(dir string) ([]Probe, error) { return rundir.ReadProbes(dir) }
