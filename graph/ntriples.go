package graph

import (
	"bufio"
	"bytes"
	"encoding/binary"
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
	var raw [3]rawTerm
	if ok, err = p.line(line, &raw); !ok || err != nil {
		return Triple{}, false, err
	}
	return Triple{S: raw[0].term(), P: raw[1].term(), O: raw[2].term()}, true, nil
}

// AppendLineKeys parses one N-Triples line like ParseLine, but instead of building terms
// it appends the keys (AppendTermKey encodings) of the subject, predicate and object to
// buf, which allocates nothing for most lines: a bulk loader hashes the keys and decodes
// only the terms it has not seen. ends are the end offsets of the three keys in out.
// Blank node labels get blankPrefix in front (also inside triple terms). A bad line
// gives a *ParseError with the column (File and Line are the caller's to fill in).
func AppendLineKeys(buf, line []byte, blankPrefix string) (out []byte, ends [3]int, ok bool, err error) {
	var p parser
	var raw [3]rawTerm
	ok, err = p.line(line, &raw)
	if err != nil {
		if se, isSyntax := err.(*syntaxError); isSyntax {
			return buf, ends, false, &ParseError{Col: se.col + 1, Err: se.err}
		}
		return buf, ends, false, &ParseError{Err: err}
	}
	if !ok {
		return buf, ends, false, nil
	}
	for i := range raw {
		buf = raw[i].appendKey(buf, blankPrefix)
		ends[i] = len(buf)
	}
	return buf, ends, true, nil
}

// ParseTerm parses one term in N-Triples syntax, such as `<http://a>`, `_:b`, `"x"@en`
// or `"1"^^<http://www.w3.org/2001/XMLSchema#integer>`.
func ParseTerm(s string) (Term, error) {
	var p parser
	p.init([]byte(s))
	p.ws()
	var t rawTerm
	if err := p.object(&t, 0); err != nil {
		return Term{}, err
	}
	p.ws()
	if !p.done() {
		return Term{}, p.errorf("unexpected %q after the term", p.rest(12))
	}
	return t.term(), nil
}

// maxTripleTermDepth bounds nested triple terms, so that hostile input cannot exhaust the
// stack.
const maxTripleTermDepth = 32

// parser reads the N-Triples grammar with the shared lexical rules of scanner.
type parser struct{ scanner }

// rawTerm is a term as scanned from a line: views of the line (or decoded copies when
// the text had escapes), turned into a Term or a term key only at the end.
type rawTerm struct {
	kind     Kind
	value    []byte
	datatype []byte // as written; xsd:string is the simple literal
	lang     []byte // lower case
	dir      []byte // lower case
	quoted   *Triple
}

// commonDatatypes are datatype IRIs interned so that terms share their strings.
var commonDatatypes = func() map[string]string {
	m := map[string]string{}
	for _, t := range []string{"string", "integer", "decimal", "double", "float", "boolean", "date", "dateTime",
		"gYear", "gYearMonth", "anyURI", "nonNegativeInteger", "positiveInteger", "long", "int"} {
		m[XSD+t] = XSD + t
	}
	m[LangString] = LangString
	return m
}()

func internDatatype(b []byte) string {
	if s, ok := commonDatatypes[string(b)]; ok {
		return s
	}
	return string(b)
}

// term builds the Term.
func (r *rawTerm) term() Term {
	switch r.kind {
	case KindTriple:
		return NewTripleTerm(*r.quoted)
	case KindLiteral:
		t := Term{Kind: KindLiteral, Value: string(r.value)}
		if len(r.lang) > 0 {
			t.Lang, t.Dir = string(r.lang), string(r.dir)
		} else if len(r.datatype) > 0 {
			t.Datatype = internDatatype(r.datatype)
			if t.Datatype == XSDString {
				t.Datatype = ""
			}
		}
		return t
	}
	return Term{Kind: r.kind, Value: string(r.value)}
}

// appendKey appends the term's key (as AppendTermKey of term() would), with
// blankPrefix before blank node labels.
func (r *rawTerm) appendKey(b []byte, blankPrefix string) []byte {
	switch r.kind {
	case KindTriple:
		q := *r.quoted
		if blankPrefix != "" {
			q = q.WithBlankPrefix(blankPrefix)
		}
		return AppendTermKey(b, NewTripleTerm(q))
	case KindBlank:
		b = append(b, byte(KindBlank))
		b = binary.AppendUvarint(b, uint64(len(blankPrefix)+len(r.value)))
		b = append(b, blankPrefix...)
		return append(b, r.value...)
	}
	b = append(b, byte(r.kind))
	b = appendKeyBytes(b, r.value)
	if r.kind == KindLiteral {
		dt := r.datatype
		if len(r.lang) > 0 || string(dt) == XSDString {
			dt = nil
		}
		b = appendKeyBytes(b, dt)
		b = appendKeyBytes(b, r.lang)
		b = appendKeyBytes(b, r.dir)
	}
	return b
}

func appendKeyBytes(b, v []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// WithBlankPrefix returns t with blankPrefix before every blank node label, also in
// nested triple terms (a loader scopes the blank nodes of a file this way).
func (t Triple) WithBlankPrefix(blankPrefix string) Triple {
	fix := func(x Term) Term {
		switch x.Kind {
		case KindBlank:
			x.Value = blankPrefix + x.Value
		case KindTriple:
			if q, err := x.Triple(); err == nil {
				return NewTripleTerm(q.WithBlankPrefix(blankPrefix))
			}
		}
		return x
	}
	return Triple{S: fix(t.S), P: t.P, O: fix(t.O)}
}

// line parses a whole line into raw; ok is false for a blank or comment line.
func (p *parser) line(line []byte, raw *[3]rawTerm) (ok bool, err error) {
	p.init(line)
	p.ws()
	if p.done() || p.peek() == '#' {
		return false, nil
	}
	if err := p.triple(raw); err != nil {
		return false, err
	}
	p.ws()
	if p.done() || p.peek() == '#' {
		return true, nil
	}
	return false, p.errorf("unexpected %q after the end of the triple (one triple per line)", p.rest(12))
}

func (p *parser) triple(raw *[3]rawTerm) error {
	if err := p.subject(&raw[0]); err != nil {
		return err
	}
	p.ws()
	if err := p.predicate(&raw[1]); err != nil {
		return err
	}
	p.ws()
	if err := p.object(&raw[2], 0); err != nil {
		return err
	}
	p.ws()
	if p.done() || p.peek() != '.' {
		if p.done() {
			return p.errorf("missing '.' at the end of the triple")
		}
		return p.errorf("expected '.' to end the triple, found %q", p.rest(12))
	}
	p.i++
	return nil
}

func (p *parser) subject(t *rawTerm) error {
	if p.done() {
		return p.errorf("missing subject")
	}
	var err error
	switch p.peek() {
	case '<':
		t.kind = KindIRI
		t.value, err = p.iri()
		return err
	case '_':
		t.kind = KindBlank
		t.value, err = p.blankBytes()
		return err
	case '@':
		return p.errorf("directives such as %q are Turtle, not N-Triples", p.rest(8))
	}
	return p.errorf("subject must be an IRI or a blank node, found %q", p.rest(12))
}

func (p *parser) predicate(t *rawTerm) error {
	if p.done() {
		return p.errorf("missing predicate")
	}
	if p.peek() != '<' {
		return p.errorf("predicate must be an IRI, found %q", p.rest(12))
	}
	var err error
	t.kind = KindIRI
	t.value, err = p.iri()
	return err
}

func (p *parser) object(t *rawTerm, depth int) error {
	if p.done() {
		return p.errorf("missing object")
	}
	var err error
	switch p.peek() {
	case '<':
		if bytes.HasPrefix(p.b[p.i:], []byte("<<(")) {
			q, err := p.tripleTerm(depth)
			if err != nil {
				return err
			}
			t.kind, t.quoted = KindTriple, &q
			return nil
		}
		t.kind = KindIRI
		t.value, err = p.iri()
		return err
	case '_':
		t.kind = KindBlank
		t.value, err = p.blankBytes()
		return err
	case '"':
		return p.literal(t)
	case '\'':
		return p.errorf("single-quoted strings are Turtle, not N-Triples")
	}
	return p.errorf("object must be an IRI, a blank node or a quoted literal, found %q", p.rest(12))
}

func (p *parser) tripleTerm(depth int) (Triple, error) {
	if depth >= maxTripleTermDepth {
		return Triple{}, p.errorf("triple terms nested deeper than %d", maxTripleTermDepth)
	}
	p.i += len("<<(")
	p.ws()
	var raw [3]rawTerm
	if err := p.subject(&raw[0]); err != nil {
		return Triple{}, err
	}
	p.ws()
	if err := p.predicate(&raw[1]); err != nil {
		return Triple{}, err
	}
	p.ws()
	if err := p.object(&raw[2], depth+1); err != nil {
		return Triple{}, err
	}
	p.ws()
	if !bytes.HasPrefix(p.b[p.i:], []byte(")>>")) {
		return Triple{}, p.errorf("expected ')>>' to close the triple term, found %q", p.rest(12))
	}
	p.i += len(")>>")
	return Triple{S: raw[0].term(), P: raw[1].term(), O: raw[2].term()}, nil
}

// iri reads an IRIREF and requires it to be absolute.
func (p *parser) iri() ([]byte, error) {
	start := p.i
	s, err := p.iriBytes(false)
	if err != nil {
		return nil, err
	}
	if !hasScheme(s) {
		p.i = start
		return nil, p.errorf("relative IRI <%s> (N-Triples needs absolute IRIs)", s)
	}
	return s, nil
}

// literal reads '"' ([^#x22#x5C#xA#xD] | ECHAR | UCHAR)* '"' then an optional
// language tag (with direction) or datatype.
func (p *parser) literal(t *rawTerm) error {
	value, err := p.quotedBytes()
	if err != nil {
		return err
	}
	t.kind, t.value = KindLiteral, value
	// RDF 1.2 allows white space between the string and its tag or datatype.
	afterQuote := p.i
	p.ws()
	if p.done() {
		p.i = afterQuote
		return nil
	}
	switch p.peek() {
	case '@':
		t.lang, t.dir, err = p.langDirBytes()
		return err
	case '^':
		if !bytes.HasPrefix(p.b[p.i:], []byte("^^")) {
			return p.errorf("expected '^^' before a datatype IRI, found %q", p.rest(8))
		}
		p.i += 2
		p.ws()
		if p.done() || p.peek() != '<' {
			return p.errorf("expected a datatype IRI after '^^', found %q", p.rest(8))
		}
		t.datatype, err = p.iri()
		return err
	}
	p.i = afterQuote
	return nil
}
