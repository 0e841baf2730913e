package records

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// The files records adds to a run directory.
const (
	WrapperFile = "wrapper.json"
	RecordsFile = "records.jsonl"
)

// WriteRecords writes recs as JSON lines, one record per line.
func WriteRecords(w io.Writer, recs []Record) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for i := range recs {
		if err := enc.Encode(&recs[i]); err != nil {
			return fmt.Errorf("records: write record %d: %w", i+1, err)
		}
	}
	return bw.Flush()
}

// LineError locates a bad line of records.jsonl.
type LineError struct {
	File string
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// ReadRecords reads JSON-lines records; name labels errors (a *LineError with the line
// number). Blank lines are skipped.
func ReadRecords(r io.Reader, name string) ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for ln := 1; sc.Scan(); ln++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var rec Record
		if err := json.Unmarshal(line, &rec); err != nil {
			return out, &LineError{File: name, Line: ln, Err: err}
		}
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("records: read %s: %w", name, err)
	}
	return out, nil
}
