package rundir

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// LineError locates a bad line of a run file: File is its path, Line counts from 1,
// Col (from 1, 0 when unknown) is the column in that line.
type LineError struct {
	File string
	Line int
	Col  int
	Err  error
}

func (e *LineError) Error() string {
	if e.Col > 0 {
		return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Col, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// maxLine bounds one JSON line (a record of a very long page).
const maxLine = 256 << 20

// ReadJSONL reads a JSON-lines file: one T per line, blank lines skipped. A line that
// does not decode as one T gives a *LineError; a missing file gives an error that
// wraps fs.ErrNotExist. Every call is counted (Parses).
func ReadJSONL[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only
	return DecodeJSONL[T](f, path)
}

// DecodeJSONL reads JSON lines from r as ReadJSONL does; name labels the errors and the
// count. A line that is not valid UTF-8 (a file written by hand from a legacy page) is
// read as Windows-1252 first, since encoding/json would turn its bytes into U+FFFD.
func DecodeJSONL[T any](r io.Reader, name string) ([]T, error) {
	countParse(name)
	var out []T
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	ln := 0
	for sc.Scan() {
		ln++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var v T
		if err := decodeOne(textnorm.RepairUTF8(line), &v); err != nil {
			return out, &LineError{File: name, Line: ln, Err: err}
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return out, &LineError{File: name, Line: ln + 1, Err: err}
	}
	return out, nil
}

// decodeOne decodes exactly one JSON value.
func decodeOne(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON value")
	}
	return nil
}

// ReadJSON decodes the JSON file at path into v. A syntax or type error is a
// *LineError with the line and column; a missing file gives an error that wraps
// fs.ErrNotExist.
func ReadJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	countParse(path)
	return DecodeJSON(b, path, v)
}

// DecodeJSON decodes the JSON document b (named name in errors) into v.
func DecodeJSON(b []byte, name string, v any) error {
	err := decodeOne(b, v)
	if err == nil {
		return nil
	}
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	case errors.Is(err, io.EOF):
		return &LineError{File: name, Line: 1, Err: errors.New("empty file")}
	case errors.Is(err, io.ErrUnexpectedEOF):
		line, _ := lineCol(b, int64(len(b)))
		return &LineError{File: name, Line: line, Err: errors.New("the file ends inside a JSON value (truncated?)")}
	}
	if off < 0 {
		return &LineError{File: name, Line: 1, Err: err}
	}
	line, col := lineCol(b, off)
	return &LineError{File: name, Line: line, Col: col, Err: err}
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(b []byte, off int64) (int, int) {
	off = min(max(off, 0), int64(len(b)))
	before := b[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	return line, max(col, 1)
}

// parses counts the parses of each run file, by base name.
var parses sync.Map // string → *atomic.Int64

func countParse(name string) {
	c, _ := parses.LoadOrStore(filepath.Base(name), new(atomic.Int64))
	c.(*atomic.Int64).Add(1)
}

// Parses returns how many times a file of this base name ("probes.jsonl") was parsed
// by ReadJSONL, DecodeJSONL or ReadJSON in this process. The pipeline's tests use it to
// check that a stage hands its results on in memory instead of re-reading them.
func Parses(name string) int64 {
	if c, ok := parses.Load(filepath.Base(name)); ok {
		return c.(*atomic.Int64).Load()
	}
	return 0
}
