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
	// ErrBadWrapper marks a wrapper (wrapper.json) that Apply cannot use: not JSON, or
	// inconsistent.
	ErrBadWrapper = errors.New("records: invalid wrapper")
	// ErrStaleWrapper marks a wrapper of another format version than WrapperVersion
	// (written by an older trawl): the pages must be extracted again.
	ErrStaleWrapper = errors.New("records: wrapper of another version")
)
