package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/schema"
)

// state is what the stages of one run directory hand on to each other in memory. A
// stage that writes a file also sets its value here; a stage that needs a value no stage
// of this process produced reads its file once. A stage found already done drops the
// values of its files (forget), since the files on disk are then the ones to read.
type state struct {
	dir string

	form        *rundir.Form
	probes      []rundir.Probe
	haveProbes  bool
	wrapper     *records.Wrapper
	records     []records.Record
	haveRecords bool
	// extraction is what the extract stage of this process found.
	extraction *Extraction
	schema     *schema.Schema
	labeled    *schema.Labeled
	// alignment and understanding are those of the last align stage that ran in this
	// process (the guided rounds walk the KB from them), or read from the files.
	alignment     *Alignment
	understanding *align.Understanding
}

// Form returns form.json.
func (s *state) Form() (rundir.Form, error) {
	if s.form == nil {
		f, err := rundir.ReadForm(s.dir)
		if err != nil {
			return f, err
		}
		s.form = &f
	}
	return *s.form, nil
}

// Probes returns probes.jsonl, ordered by probe number.
func (s *state) Probes() ([]rundir.Probe, error) {
	if !s.haveProbes {
		ps, err := rundir.ReadProbes(s.dir)
		if err != nil {
			return nil, err
		}
		s.probes, s.haveProbes = ps, true
	}
	return s.probes, nil
}

func (s *state) setProbes(ps []rundir.Probe) {
	rundir.SortProbes(ps)
	s.probes, s.haveProbes = ps, true
}

// Records returns records.jsonl.
func (s *state) Records() ([]records.Record, error) {
	if !s.haveRecords {
		recs, err := rundir.ReadJSONL[records.Record](filepath.Join(s.dir, rundir.RecordsFile))
		if err != nil {
			return nil, missing(err, rundir.RecordsFile, "trawl extract RUN_DIR")
		}
		s.records, s.haveRecords = recs, true
	}
	return s.records, nil
}

func (s *state) setRecords(w *records.Wrapper, recs []records.Record) {
	s.wrapper, s.records, s.haveRecords = w, recs, true
}

// Wrapper returns wrapper.json.
func (s *state) Wrapper() (*records.Wrapper, error) {
	if s.wrapper == nil {
		w, err := records.ReadWrapper(s.dir)
		if err != nil {
			return nil, err
		}
		s.wrapper = w
	}
	return s.wrapper, nil
}

// Schema returns schema.json.
func (s *state) Schema() (*schema.Schema, error) {
	if s.schema == nil {
		sc, err := schema.Load(filepath.Join(s.dir, rundir.SchemaFile))
		if err != nil {
			return nil, missing(err, rundir.SchemaFile, "trawl schema RUN_DIR")
		}
		s.schema = sc
	}
	return s.schema, nil
}

// Understanding returns understanding.json.
func (s *state) Understanding() (*align.Understanding, error) {
	if s.understanding == nil {
		var u align.Understanding
		if err := rundir.ReadJSON(filepath.Join(s.dir, rundir.UnderstandingFile), &u); err != nil {
			return nil, err
		}
		s.understanding = &u
	}
	return s.understanding, nil
}

// forget drops the values of the given files (and of what derives from them).
func (s *state) forget(files []string) {
	for _, f := range files {
		switch f {
		case rundir.FormFile:
			s.form = nil
		case rundir.ProbesFile:
			s.probes, s.haveProbes = nil, false
		case rundir.WrapperFile:
			s.wrapper = nil
		case rundir.RecordsFile:
			s.records, s.haveRecords = nil, false
			s.labeled = nil
		case rundir.SchemaFile:
			s.schema, s.labeled = nil, nil
		case rundir.GraphFile:
			s.labeled = nil
		case rundir.AlignmentTSV:
			s.alignment = nil
		case rundir.UnderstandingFile:
			s.understanding = nil
		}
	}
}

// missing names the command that writes a file a stage lacks. The error still wraps
// fs.ErrNotExist, and ErrNotRunDir.
func missing(err error, file, cmd string) error {
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return fmt.Errorf("%w: %w (%s is written by %s)", ErrNotRunDir, err, file, cmd)
}
