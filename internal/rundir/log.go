package rundir

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// Log appends JSON lines to a file (the probe log), each written and synced to disk
// before Append returns, so that a killed run keeps every line it reported. It is safe
// for concurrent use.
type Log struct {
	path string
	mu   sync.Mutex
	f    *os.File
}

// CreateLog creates (or truncates) the JSON-lines file at path for appending.
func CreateLog(path string) (*Log, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	return &Log{path: path, f: f}, nil
}

// AppendLog opens the JSON-lines file at path for appending, creating it if needed.
func AppendLog(path string) (*Log, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return &Log{path: path, f: f}, nil
}

// Append writes v as one JSON line and syncs it.
func (l *Log) Append(v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // ends the line with \n
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encode a line of %s: %w", l.path, err)
	}
	line := buf.Bytes()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("append to %s: %w", l.path, errors.New("the log is closed"))
	}
	if _, err := l.f.Write(line); err != nil {
		return fmt.Errorf("write %s: %w", l.path, err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", l.path, err)
	}
	return nil
}

// Close closes the file; later Appends fail.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// ReadForm reads form.json of the run directory dir.
func ReadForm(dir string) (Form, error) {
	var f Form
	err := ReadJSON(filepath.Join(dir, FormFile), &f)
	return f, err
}

// ReadProbes reads probes.jsonl of the run directory dir, ordered by probe number (the
// prober's tabs finish probes out of order).
func ReadProbes(dir string) ([]Probe, error) {
	ps, err := ReadJSONL[Probe](filepath.Join(dir, ProbesFile))
	SortProbes(ps)
	return ps, err
}

// SortProbes orders probes by their number, stably.
func SortProbes(ps []Probe) {
	slices.SortStableFunc(ps, func(a, b Probe) int { return a.N - b.N })
}
