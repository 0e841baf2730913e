package probe

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// The files of a probe run directory (design.md "The run directory").
const (
	FormFile   = "form.json"
	ProbesFile = "probes.jsonl"
	PagesDir   = "pages"
	FormPNG    = "form.png"
)

// Source returns the stable directory name of a form page: its host (with the port)
// and path, lower-cased, every run of other characters than letters and digits turned
// into "-". Long names are cut and end with a hash of the whole.
// "http://127.0.0.1:18082/mobile" → "127-0-0-1-18082-mobile".
func Source(pageURL string) string {
	u, err := url.Parse(pageURL)
	raw := pageURL
	if err == nil && u.Host != "" {
		raw = u.Host + u.EscapedPath()
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(raw) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimRight(b.String(), "-")
	if s == "" {
		s = "source"
	}
	if len(s) > 80 {
		h := sha256.Sum256([]byte(raw))
		s = strings.TrimRight(s[:71], "-") + "-" + hex.EncodeToString(h[:4])
	}
	return s
}

// RunDir writes the probe stage of a run directory: form.json, probes.jsonl (one
// line per probe, flushed to disk as each probe ends) and pages/ (the DOM of each
// result page, and PNG screenshots). It is safe for concurrent use.
type RunDir struct {
	dir    string
	mu     sync.Mutex
	probes *os.File
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
	f, err := os.OpenFile(filepath.Join(dir, ProbesFile), os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("probe: create %s: %w", ProbesFile, err)
	}
	return &RunDir{dir: dir, probes: f}, nil
}

// Dir returns the run directory's path.
func (d *RunDir) Dir() string { return d.dir }

// WriteFile writes a file of the run directory atomically (a temporary file renamed).
func (d *RunDir) WriteFile(name string, data []byte) error {
	p := filepath.Join(d.dir, name)
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("probe: write %s: %w", name, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		return fmt.Errorf("probe: write %s: %w", name, err)
	}
	return nil
}

// WriteJSON writes v as indented JSON to a file of the run directory.
func (d *RunDir) WriteJSON(name string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("probe: encode %s: %w", name, err)
	}
	return d.WriteFile(name, buf.Bytes())
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
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // ends the line with \n
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return p, fmt.Errorf("probe: encode probe %d: %w", p.N, err)
	}
	line := buf.Bytes()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.probes == nil {
		return p, errors.New("probe: the run directory is closed")
	}
	if _, err := d.probes.Write(line); err != nil {
		return p, fmt.Errorf("probe: write %s: %w", ProbesFile, err)
	}
	if err := d.probes.Sync(); err != nil {
		return p, fmt.Errorf("probe: sync %s: %w", ProbesFile, err)
	}
	return p, nil
}

// Close closes the probe log.
func (d *RunDir) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.probes == nil {
		return nil
	}
	err := d.probes.Close()
	d.probes = nil
	return err
}

// ReadForm reads form.json of a run directory.
func ReadForm(dir string) (Form, error) {
	var f Form
	b, err := os.ReadFile(filepath.Join(dir, FormFile))
	if err != nil {
		return f, fmt.Errorf("probe: %w", err)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, fmt.Errorf("probe: %s: %w", filepath.Join(dir, FormFile), err)
	}
	return f, nil
}

// ProbeLineError locates a bad line of probes.jsonl.
type ProbeLineError struct {
	File string
	Line int
	Err  error
}

func (e *ProbeLineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }
func (e *ProbeLineError) Unwrap() error { return e.Err }

// ReadProbes reads probes.jsonl of a run directory, ordered by probe number. A bad line
// gives a *ProbeLineError with its line number.
func ReadProbes(dir string) ([]Probe, error) {
	name := filepath.Join(dir, ProbesFile)
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("probe: %w", err)
	}
	var out []Probe
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for ln := 1; sc.Scan(); ln++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var p Probe
		if err := json.Unmarshal(line, &p); err != nil {
			return out, &ProbeLineError{File: name, Line: ln, Err: err}
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("probe: read %s: %w", name, err)
	}
	slices.SortStableFunc(out, func(a, b Probe) int { return a.N - b.N })
	return out, nil
}
