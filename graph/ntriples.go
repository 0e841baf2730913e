package graph

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ParseError locates a bad line of an RDF file. It wraps the underlying cause.
type ParseError struct {
	File string // the file name as given to the reader ("" for an unnamed stream)
	Line int    // 1-based line number
	Col  int    // 1-based byte column where the problem was found (0 if unknown)
	Err  error
}

func (e *ParseError) Error() string {
	name := e.File
	if name == "" {
		name = "<input>"
	}
	if e.Col > 0 {
		return fmt.Sprintf("%s:%d:%d: %v", name, e.Line, e.Col, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", name, e.Line, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// ErrLineTooLong is the cause of a ParseError for a line longer than MaxLineBytes.
var ErrLineTooLong = errors.New("line too long")

// MaxLineBytes bounds one N-Triples line; longer lines are reported and skipped.
const MaxLineBytes = 16 << 20

// Reader reads N-Triples (RDF 1.1, plus the RDF 1.2 triple terms and directional
// language tags) one triple at a time. It never panics on input: a bad line yields a
// *ParseError and the next call to Read continues with the following line, so a caller
// can count bad lines and decide when to stop.
type Reader struct {
	r     *bufio.Reader
	name  string
	line  int
	pend  [][]byte // lines left over from a physical line split at a lone CR
	eof   bool
	carry []byte
}

// NewReader returns a reader of N-Triples from r; name is used in error messages.
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 1<<20), name: name}
}

// Line returns the number of the line last read.
func (r *Reader) Line() int { return r.line }

// Read returns the next triple, io.EOF at the end, a *ParseError for a bad line, or
// another error if reading failed.
func (r *Reader) Read() (Triple, error) {
	for {
		line, err := r.nextLine()
		if err != nil {
			return Triple{}, err
		}
		t, ok, perr := ParseLine(line)
		if perr != nil {
			return Triple{}, r.errorf(perr)
		}
		if ok {
			return t, nil
		}
	}
}

func (r *Reader) errorf(err error) error {
	var se *syntaxError
	if errors.As(err, &se) {
		return &ParseError{File: r.name, Line: r.line, Col: se.col + 1, Err: se.err}
	}
	return &ParseError{File: r.name, Line: r.line, Err: err}
}

// nextLine returns the next logical line (without its terminator).
func (r *Reader) nextLine() ([]byte, error) {
	if len(r.pend) > 0 {
		l := r.pend[0]
		r.pend = r.pend[1:]
		r.line++
		return l, nil
	}
	if r.eof {
		return nil, io.EOF
	}
	buf, err := r.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		r.carry = append(r.carry[:0], buf...)
		for errors.Is(err, bufio.ErrBufferFull) {
			buf, err = r.r.ReadSlice('\n')
			if len(r.carry) <= MaxLineBytes {
				r.carry = append(r.carry, buf...)
			}
		}
		buf = r.carry
		if len(buf) > MaxLineBytes {
			r.line++
			if err == io.EOF {
				r.eof = true
			}
			return nil, &ParseError{File: r.name, Line: r.line, Err: ErrLineTooLong}
		}
	}
	switch {
	case err == io.EOF:
		r.eof = true
		if len(buf) == 0 {
			return nil, io.EOF
		}
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", r.name, err)
	}
	buf = bytes.TrimSuffix(buf, []byte{'\n'})
	buf = bytes.TrimSuffix(buf, []byte{'\r'})
	if bytes.IndexByte(buf, '\r') >= 0 { // old Mac line ends: CR alone ends a line too
		parts := bytes.Split(buf, []byte{'\r'})
		buf = parts[0]
		r.pend = append(r.pend, parts[1:]...)
	}
	r.line++
	return buf, nil
}

// ParseLine parses one N-Triples line. ok is false for a line that holds only white
// space or a comment. A bad line gives an error whose message says what is wrong.
func ParseLine(line []byte) (t Triple, ok bool, err error) {
	var p parser
	p.init(line)
	p.ws()
	if p.done() || p.peek() == '#' {
		return Triple{}, false, nil
	}
	t, err = p.triple()
	if err != nil {
		return Triple{}, false, err
	}
	p.ws()
	if p.done() || p.peek() == '#' {
		return t, true, nil
	}
	return Triple{}, false, p.errorf("unexpected %q after the end of the triple (one triple per line)", p.rest(12))
}

// ParseTerm parses one term in N-Triples syntax, such as `<http://a>`, `_:b`, `"x"@en`
// or `"1"^^<http://www.w3.org/2001/XMLSchema#integer>`.
func ParseTerm(s string) (Term, error) {
	var p parser
	p.init([]byte(s))
	p.ws()
	t, err := p.object(0)
	if err != nil {
		return Term{}, err
	}
	p.ws()
	if !p.done() {
		return Term{}, p.errorf("unexpected %q after the term", p.rest(12))
	}
	return t, nil
}

// maxTripleTermDepth bounds nested triple terms, so that hostile input cannot exhaust the
// stack.
const maxTripleTermDepth = 32

// parser reads the N-Triples grammar with the shared lexical rules of scanner.
type parser struct{ scanner }

func (p *parser) triple() (Triple, error) {
	s, err := p.subject()
	if err != nil {
		return Triple{}, err
	}
	p.ws()
	pr, err := p.predicate()
	if err != nil {
		return Triple{}, err
	}
	p.ws()
	o, err := p.object(0)
	if err != nil {
		return Triple{}, err
	}
	p.ws()
	if p.done() || p.peek() != '.' {
		if p.done() {
			return Triple{}, p.errorf("missing '.' at the end of the triple")
		}
		return Triple{}, p.errorf("expected '.' to end the triple, found %q", p.rest(12))
	}
	p.i++
	return Triple{S: s, P: pr, O: o}, nil
}

func (p *parser) subject() (Term, error) {
	if p.done() {
		return Term{}, p.errorf("missing subject")
	}
	switch p.peek() {
	case '<':
		iri, err := p.iri()
		return NewIRI(iri), err
	case '_':
		l, err := p.blank()
		return NewBlank(l), err
	case '@':
		return Term{}, p.errorf("directives such as %q are Turtle, not N-Triples", p.rest(8))
	}
	return Term{}, p.errorf("subject must be an IRI or a blank node, found %q", p.rest(12))
}

func (p *parser) predicate() (Term, error) {
	if p.done() {
		return Term{}, p.errorf("missing predicate")
	}
	if p.peek() != '<' {
		return Term{}, p.errorf("predicate must be an IRI, found %q", p.rest(12))
	}
	iri, err := p.iri()
	return NewIRI(iri), err
}

func (p *parser) object(depth int) (Term, error) {
	if p.done() {
		return Term{}, p.errorf("missing object")
	}
	switch p.peek() {
	case '<':
		if bytes.HasPrefix(p.b[p.i:], []byte("<<(")) {
			t, err := p.tripleTerm(depth)
			if err != nil {
				return Term{}, err
			}
			return NewTripleTerm(t), nil
		}
		iri, err := p.iri()
		return NewIRI(iri), err
	case '_':
		l, err := p.blank()
		return NewBlank(l), err
	case '"':
		return p.literal()
	case '\'':
		return Term{}, p.errorf("single-quoted strings are Turtle, not N-Triples")
	}
	return Term{}, p.errorf("object must be an IRI, a blank node or a quoted literal, found %q", p.rest(12))
}

func (p *parser) tripleTerm(depth int) (Triple, error) {
	if depth >= maxTripleTermDepth {
		return Triple{}, p.errorf("triple terms nested deeper than %d", maxTripleTermDepth)
	}
	p.i += len("<<(")
	p.ws()
	s, err := p.subject()
	if err != nil {
		return Triple{}, err
	}
	p.ws()
	pr, err := p.predicate()
	if err != nil {
		return Triple{}, err
	}
	p.ws()
	o, err := p.object(depth + 1)
	if err != nil {
		return Triple{}, err
	}
	p.ws()
	if !bytes.HasPrefix(p.b[p.i:], []byte(")>>")) {
		return Triple{}, p.errorf("expected ')>>' to close the triple term, found %q", p.rest(12))
	}
	p.i += len(")>>")
	return Triple{S: s, P: pr, O: o}, nil
}

// iri reads an IRIREF and requires it to be absolute.
func (p *parser) iri() (string, error) {
	start := p.i
	s, err := p.iriRef(false)
	if err != nil {
		return "", err
	}
	if !HasScheme(s) {
		p.i = start
		return "", p.errorf("relative IRI <%s> (N-Triples needs absolute IRIs)", s)
	}
	return s, nil
}

// literal reads '"' ([^#x22#x5C#xA#xD] | ECHAR | UCHAR)* '"' then an optional
// language tag (with direction) or datatype.
func (p *parser) literal() (Term, error) {
	value, err := p.quoted()
	if err != nil {
		return Term{}, err
	}
	// RDF 1.2 allows white space between the string and its tag or datatype.
	afterQuote := p.i
	p.ws()
	if p.done() {
		p.i = afterQuote
		return NewLiteral(value), nil
	}
	switch p.peek() {
	case '@':
		lang, dir, err := p.langDir()
		if err != nil {
			return Term{}, err
		}
		return Term{Kind: KindLiteral, Value: value, Lang: lang, Dir: dir}, nil
	case '^':
		if !bytes.HasPrefix(p.b[p.i:], []byte("^^")) {
			return Term{}, p.errorf("expected '^^' before a datatype IRI, found %q", p.rest(8))
		}
		p.i += 2
		p.ws()
		if p.done() || p.peek() != '<' {
			return Term{}, p.errorf("expected a datatype IRI after '^^', found %q", p.rest(8))
		}
		dt, err := p.iri()
		if err != nil {
			return Term{}, err
		}
		return NewTyped(value, dt), nil
	}
	p.i = afterQuote
	return NewLiteral(value), nil
}
