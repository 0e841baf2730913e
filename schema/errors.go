package schema

import (
	"errors"
	"fmt"
)

var (
	// ErrNoRecords is returned by Build when there is no record to align.
	ErrNoRecords = errors.New("schema: no records to align")
	// ErrFormat is wrapped by errors about a schema.json that cannot be used.
	ErrFormat = errors.New("schema: unusable schema file")
)

// ParseError locates a bad line of a JSON-lines input (records.jsonl, probes.jsonl).
type ParseError struct {
	File string
	Line int
	Err  error
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }
func (e *ParseError) Unwrap() error { return e.Err }
