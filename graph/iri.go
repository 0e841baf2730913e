package graph

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// IRI minting for the labeled graph of a deep-web source. The scheme (see
// docs/decisions/2026-11-22-stable-record-iris.md):
//
//	{base}/src/{source}                 the source: a void:Dataset
//	{base}/src/{source}/Record          the class of its records
//	{base}/src/{source}/p/{name}        the predicate of a record feature
//	{base}/src/{source}/rec/{key}       a record: key = 16 hex digits of SHA-256 over the
//	                                    normal form of the record's identity text
//	{base}/src/{source}/field/{name}    a field of the form
//	{base}/src/{source}/probe/{n}       a probe (a prov:Activity)
//	{base}/vocab#{term}                 trawl's own vocabulary
//
// {source} is schema.SourceID: host, path and a hash of the form's method and action
// URL. Nothing depends on page order or run time, so the same pages always give the same
// IRIs.

// DefaultBase is the base of minted IRIs when none is configured. The .invalid top-level
// domain is reserved (RFC 2606): the IRIs are unambiguous but not dereferenceable; set a
// base you control to publish them.
const DefaultBase = "https://trawl.invalid"

// ErrIRI is wrapped by errors about an IRI that cannot be made valid.
var ErrIRI = errors.New("graph: invalid IRI")

// Namespace mints the IRIs of one source.
type Namespace struct {
	base   string // without trailing slash
	source string
}

// NewNamespace returns the namespace of the source under base (DefaultBase when empty).
// The base must be an absolute IRI; the source ID is percent-encoded if needed.
func NewNamespace(base, sourceID string) (Namespace, error) {
	if base == "" {
		base = DefaultBase
	}
	b, err := EscapeIRI(base)
	if err != nil {
		return Namespace{}, fmt.Errorf("base IRI: %w", err)
	}
	if strings.ContainsAny(b, "#?") {
		return Namespace{}, fmt.Errorf("%w: base %q must not have a query or fragment", ErrIRI, base)
	}
	if strings.TrimSpace(sourceID) == "" {
		return Namespace{}, fmt.Errorf("%w: empty source ID", ErrIRI)
	}
	return Namespace{base: strings.TrimRight(b, "/"), source: PathSegment(sourceID)}, nil
}

// Base returns the base IRI (without trailing slash).
func (n Namespace) Base() string { return n.base }

// SourceIRI returns the IRI of the source: {base}/src/{source}.
func (n Namespace) SourceIRI() string { return n.base + "/src/" + n.source }

// Dataset returns the source's IRI as a term (the void:Dataset of its graph).
func (n Namespace) Dataset() Term { return NewIRI(n.SourceIRI()) }

// Class returns the class of the source's records.
func (n Namespace) Class() Term { return NewIRI(n.SourceIRI() + "/Record") }

// PredicatePrefix is the IRI prefix of the source's feature predicates.
func (n Namespace) PredicatePrefix() string { return n.SourceIRI() + "/p/" }

// Predicate returns the predicate of the feature with the given name.
func (n Namespace) Predicate(name string) Term {
	return NewIRI(n.PredicatePrefix() + PathSegment(name))
}

// RecordPrefix is the IRI prefix of the source's records (its void:uriSpace).
func (n Namespace) RecordPrefix() string { return n.SourceIRI() + "/rec/" }

// Record returns the entity of the record with the given key (see RecordKey).
func (n Namespace) Record(key string) Term { return NewIRI(n.RecordPrefix() + PathSegment(key)) }

// Field returns the IRI of a form field.
func (n Namespace) Field(name string) Term {
	return NewIRI(n.SourceIRI() + "/field/" + PathSegment(name))
}

// Form returns the IRI of the source's form.
func (n Namespace) Form() Term { return NewIRI(n.SourceIRI() + "/form") }

// Probe returns the IRI of the k-th probe of the run.
func (n Namespace) Probe(k int) Term { return NewIRI(n.SourceIRI() + "/probe/" + strconv.Itoa(k)) }

// Run returns the IRI of the probing run (a prov:Activity).
func (n Namespace) Run() Term { return NewIRI(n.SourceIRI() + "/run") }

// Partition returns the IRI of a VoID partition of the dataset.
func (n Namespace) Partition(kind, name string) Term {
	return NewIRI(n.SourceIRI() + "/void/" + kind + "/" + PathSegment(name))
}

// Vocab returns a term of trawl's vocabulary: {base}/vocab#{local}.
func (n Namespace) Vocab(local string) Term { return NewIRI(n.base + "/vocab#" + local) }

// RecordKey returns the key of a record from its identity text: the first 16 hex digits
// (64 bits) of SHA-256 over the text's normal form (folded words joined by one space),
// so that case, accents, punctuation and white space do not change it. It returns ""
// for text without letters or digits.
func RecordKey(identity string) string {
	norm := strings.Join(textnorm.Tokens(identity), " ")
	if norm == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(norm))
	return hex.EncodeToString(sum[:8])
}

// EscapeIRI returns s as an IRI that N-Triples accepts: surrounding white space trimmed,
// and every character that IRIREF forbids (controls, space, <>"{}|^`\), every byte of
// invalid UTF-8 and every '%' that does not start an escape percent-encoded. It fails
// when s is not absolute (has no scheme).
func EscapeIRI(s string) (string, error) {
	s = strings.TrimSpace(s)
	if !HasScheme(s) {
		return "", fmt.Errorf("%w: %q is not absolute", ErrIRI, s)
	}
	if clean(s) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			pct(&b, s[i])
		case r == '%' && !(i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])):
			pct(&b, '%')
		case r <= 0x20 || r == 0x7f || strings.ContainsRune("<>\"{}|^`\\", r) || r >= 0x80 && r <= 0x9f || r == 0xfffe || r == 0xffff:
			for _, c := range []byte(string(r)) {
				pct(&b, c)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String(), nil
}

func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= 0x20 || c >= 0x7f || strings.IndexByte("<>\"{}|^`\\%", c) >= 0 {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func pct(b *strings.Builder, c byte) {
	b.WriteByte('%')
	b.WriteByte(hexDigits[c>>4])
	b.WriteByte(hexDigits[c&0xF])
}

// PathSegment percent-encodes s for use as one path segment of an IRI: everything but
// unreserved characters (letters, digits, -._~), sub-delimiters that are safe in a path
// segment (!$&'()*+,;=:@) and non-ASCII letters.
func PathSegment(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			pct(&b, s[i])
		case r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-._~!$&'()*+,;=:@", r)):
			b.WriteRune(r)
		case r >= 0xa0 && r != 0xfffe && r != 0xffff && !(r >= 0xd800 && r <= 0xdfff):
			b.WriteString(s[i : i+size])
		default:
			for _, c := range []byte(string(r)) {
				pct(&b, c)
			}
		}
		i += size
	}
	return b.String()
}
