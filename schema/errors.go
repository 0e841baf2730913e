package schema

import "errors"

var (
	// ErrNoRecords is returned by Build when there is no record to align.
	ErrNoRecords = errors.New("schema: no records to align")
	// ErrFormat is wrapped by errors about a schema.json that cannot be used.
	ErrFormat = errors.New("schema: unusable schema file")
)
