package schema

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/records"
)

// The files of a run directory that schema reads and writes (internal/rundir owns
// their names).
const (
	RecordsFile = rundir.RecordsFile
	FormFile    = rundir.FormFile
	ProbesFile  = rundir.ProbesFile
	SchemaFile  = rundir.SchemaFile
)

// Load reads a schema.json. A file that is not JSON, of another format version or
// with a feature without name or location gives an error wrapping ErrFormat.
func Load(path string) (*Schema, error) {
	var s Schema
	if err := rundir.ReadJSON(path, &s); err != nil {
		if _, ok := errors.AsType[*rundir.LineError](err); ok {
			return nil, fmt.Errorf("%w: %w", ErrFormat, err)
		}
		return nil, err
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

// WriteFile writes the schema to path atomically (rundir.WriteFile).
func (s *Schema) WriteFile(path string) error {
	var buf bytes.Buffer
	if err := s.Encode(&buf); err != nil {
		return err
	}
	return rundir.WriteFile(path, buf.Bytes())
}

// Run is the schema stage of a run directory: it builds the output schema of recs
// (Build) and writes it to dir/schema.json. The pipeline hands it the records, the form
// and the probe log it holds in memory.
func Run(ctx context.Context, dir string, recs []records.Record, in Input, o Options) (*Schema, error) {
	if in.Form == nil {
		o.logger().Warn("no form.json: the schema has no source form and no input–output mapping", "dir", dir)
	}
	s, err := Build(ctx, recs, in, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if err := s.WriteFile(filepath.Join(dir, SchemaFile)); err != nil {
		return nil, fmt.Errorf("write schema: %w", err)
	}
	return s, nil
}
