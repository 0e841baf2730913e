package schema

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
)

// The files of a run directory that schema reads and writes.
const (
	RecordsFile = "records.jsonl"
	FormFile    = "form.json"
	ProbesFile  = "probes.jsonl"
	SchemaFile  = "schema.json"
)

// maxLine bounds one JSON line (a record of a very long page).
const maxLine = 64 << 20

// ReadRecords reads records.jsonl: one records.Record per line; blank lines are skipped.
// A bad line is a *ParseError naming the file and line.
func ReadRecords(r io.Reader, name string) ([]records.Record, error) {
	var out []records.Record
	err := readLines(r, name, func(line []byte) error {
		var rec records.Record
		if err := strictUnmarshal(line, &rec); err != nil {
			return err
		}
		out = append(out, rec)
		return nil
	})
	return out, err
}

// ReadProbes reads probes.jsonl: one probe.Probe per line.
func ReadProbes(r io.Reader, name string) ([]probe.Probe, error) {
	var out []probe.Probe
	err := readLines(r, name, func(line []byte) error {
		var p probe.Probe
		if err := json.Unmarshal(line, &p); err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	return out, err
}

func strictUnmarshal(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}

func readLines(r io.Reader, name string, fn func([]byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		// encoding/json would turn bytes that are not UTF-8 into U+FFFD; repair them
		// first (records of a page saved in a legacy encoding).
		line = RepairUTF8(line)
		if err := fn(line); err != nil {
			return &ParseError{File: name, Line: n, Err: err}
		}
	}
	if err := sc.Err(); err != nil {
		return &ParseError{File: name, Line: n + 1, Err: err}
	}
	return nil
}

// ReadForm reads form.json: one probe.Form, or a list of forms of which the first
// search form (else the first form) is taken.
func ReadForm(path string) (*probe.Form, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var forms []probe.Form
		if err := json.Unmarshal(data, &forms); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if len(forms) == 0 {
			return nil, fmt.Errorf("%s: no form in the list", path)
		}
		for i := range forms {
			if forms[i].Class == probe.ClassSearch {
				return &forms[i], nil
			}
		}
		return &forms[0], nil
	}
	var f probe.Form
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &f, nil
}

// Load reads a schema.json.
func Load(path string) (*Schema, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s Schema
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrFormat, path, err)
	}
	if s.Version != FormatVersion {
		return nil, fmt.Errorf("%w: %s: version %d, this trawl reads version %d", ErrFormat, path, s.Version, FormatVersion)
	}
	for i, f := range s.Features {
		if f.Name == "" || len(f.Locations) == 0 {
			return nil, fmt.Errorf("%w: %s: feature %d has no name or no location", ErrFormat, path, i)
		}
	}
	return &s, nil
}

// Encode writes the schema as indented JSON. The output is deterministic.
func (s *Schema) Encode(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(s)
}

// WriteFile writes the schema to path atomically (a temporary file renamed over it).
func (s *Schema) WriteFile(path string) error {
	var buf bytes.Buffer
	if err := s.Encode(&buf); err != nil {
		return err
	}
	return writeAtomic(path, buf.Bytes())
}

func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// RunDir is the input of a schema run read from a run directory.
type RunDir struct {
	Dir     string
	Records []records.Record
	Form    *probe.Form
	Probes  []probe.Probe
}

// ReadRunDir reads records.jsonl (required), form.json and probes.jsonl (optional) of a
// run directory.
func ReadRunDir(dir string) (*RunDir, error) {
	rd := &RunDir{Dir: dir}
	f, err := os.Open(filepath.Join(dir, RecordsFile))
	if err != nil {
		return nil, fmt.Errorf("read records: %w", err)
	}
	rd.Records, err = ReadRecords(f, filepath.Join(dir, RecordsFile))
	_ = f.Close()
	if err != nil {
		return nil, err
	}
	if form, err := ReadForm(filepath.Join(dir, FormFile)); err == nil {
		rd.Form = form
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read form: %w", err)
	}
	if pf, err := os.Open(filepath.Join(dir, ProbesFile)); err == nil {
		rd.Probes, err = ReadProbes(pf, filepath.Join(dir, ProbesFile))
		_ = pf.Close()
		if err != nil {
			return nil, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read probes: %w", err)
	}
	return rd, nil
}

// PageReader returns a function that reads a page named by records.Record.Page: a
// path relative to the run directory, or an absolute path.
func (rd *RunDir) PageReader() func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(rd.Dir, filepath.FromSlash(name))
		}
		return os.ReadFile(p)
	}
}

// Run is the schema stage of a run directory: it reads records.jsonl, form.json and
// probes.jsonl, builds the output schema (with re-submission trials when sub is not
// nil) and writes schema.json.
func Run(ctx context.Context, dir string, sub Submitter, o Options) (*Schema, error) {
	rd, err := ReadRunDir(dir)
	if err != nil {
		return nil, err
	}
	log := o.logger()
	if rd.Form == nil {
		log.Warn("no form.json: the schema has no source form and no input–output mapping", "dir", dir)
	}
	s, err := Build(ctx, rd.Records, Input{Form: rd.Form, Probes: rd.Probes, Page: rd.PageReader(), Submitter: sub}, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if err := s.WriteFile(filepath.Join(dir, SchemaFile)); err != nil {
		return nil, fmt.Errorf("write schema: %w", err)
	}
	return s, nil
}
