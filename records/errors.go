package records

import "errors"

// Sentinel errors of package records.
var (
	// ErrNoPages is returned when Extract is given no page at all.
	ErrNoPages = errors.New("records: no pages given")
	// ErrBadPage marks a page that cannot be read as HTML; Extract skips such pages and
	// reports them in the wrapper.
	ErrBadPage = errors.New("records: not an HTML page")
	// ErrNoUsablePage is returned when every page given was unreadable.
	ErrNoUsablePage = errors.New("records: no readable page")
	// ErrBadOptions wraps an invalid Options field.
	ErrBadOptions = errors.New("records: invalid options")
)
