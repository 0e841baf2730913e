package ontology

import (
	"errors"
	"fmt"
)

// Sentinel errors of the store. Test for them with errors.Is.
var (
	// ErrLayoutVersion means the KB directory was written by a trawl with an
	// incompatible key layout.
	ErrLayoutVersion = errors.New("ontology: store layout version mismatch")
	// ErrIncomplete means the KB directory holds a load that did not finish (it was
	// interrupted or failed).
	ErrIncomplete = errors.New("ontology: store has no completed load")
	// ErrNotKB means the directory is not a trawl KB.
	ErrNotKB = errors.New("ontology: not a trawl knowledge base")
	// ErrExists means a load was asked into a directory that already holds a complete KB.
	ErrExists = errors.New("ontology: directory already holds a complete knowledge base")
	// ErrTooManyErrors means a load stopped because it met more bad lines than allowed.
	ErrTooManyErrors = errors.New("ontology: too many bad input lines")
	// ErrIDCollision means two different terms hashed to the same node identifier. It
	// is astronomically rare; loading again with another LoadOptions.IDSalt fixes it.
	ErrIDCollision = errors.New("ontology: node identifier collision")
	// ErrClosed is returned by the methods of a closed store.
	ErrClosed = errors.New("ontology: store is closed")
	// ErrUnknown means an IRI names neither a relation nor a class of the KB.
	ErrUnknown = errors.New("ontology: unknown relation or class")
)

// LayoutError reports a KB directory written with another key layout.
type LayoutError struct {
	Dir       string
	Found     int // the layout version in the directory
	Supported int // the layout version this build reads
}

func (e *LayoutError) Error() string {
	return fmt.Sprintf("ontology: %s was written with KB layout version %d, but this trawl reads layout version %d; load the dumps again with 'trawl kb load --replace'",
		e.Dir, e.Found, e.Supported)
}

func (e *LayoutError) Unwrap() error { return ErrLayoutVersion }
