package graph

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
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

type syntaxError struct {
	col int
	err error
}

func (e *syntaxError) Error() string { return fmt.Sprintf("column %d: %v", e.col+1, e.err) }
func (e *syntaxError) Unwrap() error { return e.err }

// maxTripleTermDepth bounds nested triple terms, so that hostile input cannot exhaust the
// stack.
const maxTripleTermDepth = 32

type parser struct {
	b []byte
	i int
}

func (p *parser) init(b []byte) { p.b, p.i = b, 0 }
func (p *parser) done() bool    { return p.i >= len(p.b) }
func (p *parser) peek() byte    { return p.b[p.i] }

func (p *parser) rest(n int) string {
	r := p.b[p.i:]
	if len(r) > n {
		r = r[:n]
	}
	return string(r)
}

func (p *parser) errorf(format string, args ...any) error {
	return &syntaxError{col: p.i, err: fmt.Errorf(format, args...)}
}

func (p *parser) ws() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t') {
		p.i++
	}
}

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

// iri reads an IRIREF: '<' ([^#x00-#x20<>"{}|^`\] | UCHAR)* '>', and requires it to be
// absolute.
func (p *parser) iri() (string, error) {
	start := p.i
	p.i++ // '<'
	from := p.i
	var sb *strings.Builder
	for {
		if p.done() {
			p.i = start
			return "", p.errorf("unterminated IRI %q", p.rest(40))
		}
		c := p.peek()
		switch {
		case c == '>':
			var s string
			if sb == nil {
				s = string(p.b[from:p.i])
			} else {
				sb.Write(p.b[from:p.i])
				s = sb.String()
			}
			p.i++
			if !HasScheme(s) {
				p.i = start
				return "", p.errorf("relative IRI <%s> (N-Triples needs absolute IRIs)", s)
			}
			return s, nil
		case c == '\\':
			if sb == nil {
				sb = &strings.Builder{}
			}
			sb.Write(p.b[from:p.i])
			r, err := p.uchar()
			if err != nil {
				return "", err
			}
			if r <= 0x20 || strings.ContainsRune("<>\"{}|^`\\", r) {
				return "", p.errorf("escape in IRI encodes the forbidden character %U", r)
			}
			sb.WriteRune(r)
			from = p.i
		case c <= 0x20 || c == '<' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' || c == '`':
			return "", p.errorf("character %q is not allowed in an IRI", c)
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(p.b[p.i:])
			if r == utf8.RuneError && size == 1 {
				return "", p.errorf("invalid UTF-8 in IRI")
			}
			p.i += size
		default:
			p.i++
		}
	}
}

// uchar reads \uXXXX or \UXXXXXXXX at p.i.
func (p *parser) uchar() (rune, error) {
	if p.i+1 >= len(p.b) {
		return 0, p.errorf("incomplete escape")
	}
	var n int
	switch p.b[p.i+1] {
	case 'u':
		n = 4
	case 'U':
		n = 8
	default:
		return 0, p.errorf("invalid escape %q in IRI (only \\u and \\U are allowed)", p.rest(2))
	}
	if p.i+2+n > len(p.b) {
		return 0, p.errorf("incomplete escape %q", p.rest(2+n))
	}
	var r rune
	for _, c := range p.b[p.i+2 : p.i+2+n] {
		v, ok := hexVal(c)
		if !ok {
			return 0, p.errorf("invalid hex digit in escape %q", p.rest(2+n))
		}
		r = r<<4 | rune(v)
	}
	if r > utf8.MaxRune || (r >= 0xD800 && r <= 0xDFFF) {
		return 0, p.errorf("escape %q is not a Unicode scalar value", p.rest(2+n))
	}
	p.i += 2 + n
	return r, nil
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// blank reads a BLANK_NODE_LABEL: '_:' (PN_CHARS_U | [0-9]) ((PN_CHARS | '.')* PN_CHARS)?
func (p *parser) blank() (string, error) {
	if !bytes.HasPrefix(p.b[p.i:], []byte("_:")) {
		return "", p.errorf("expected a blank node '_:', found %q", p.rest(8))
	}
	p.i += 2
	start := p.i
	end := start
	first := true
	for !p.done() {
		r, size := utf8.DecodeRune(p.b[p.i:])
		if first {
			if !IsPNCharsU(r) && !(r >= '0' && r <= '9') {
				return "", p.errorf("invalid first character %q in blank node label", r)
			}
			first = false
			p.i += size
			end = p.i
			continue
		}
		if r == '.' {
			p.i += size
			continue
		}
		if !IsPNChars(r) {
			break
		}
		p.i += size
		end = p.i
	}
	if first {
		return "", p.errorf("empty blank node label")
	}
	p.i = end // a trailing '.' belongs to the statement, not the label
	if !p.done() && p.peek() == ':' {
		return "", p.errorf("character ':' is not allowed in a blank node label")
	}
	return string(p.b[start:end]), nil
}

func validBlankLabel(s string) bool {
	var p parser
	p.init([]byte("_:" + s))
	l, err := p.blank()
	return err == nil && l == s && p.done()
}

// literal reads '"' ([^#x22#x5C#xA#xD] | ECHAR | UCHAR)* '"' then an optional
// language tag (with direction) or datatype.
func (p *parser) literal() (Term, error) {
	p.i++ // '"'
	from := p.i
	var sb *strings.Builder
	var value string
loop:
	for {
		if p.done() {
			return Term{}, p.errorf("unterminated string literal")
		}
		c := p.peek()
		switch {
		case c == '"':
			if sb == nil {
				value = string(p.b[from:p.i])
			} else {
				sb.Write(p.b[from:p.i])
				value = sb.String()
			}
			p.i++
			break loop
		case c == '\\':
			if sb == nil {
				sb = &strings.Builder{}
			}
			sb.Write(p.b[from:p.i])
			if p.i+1 >= len(p.b) {
				return Term{}, p.errorf("incomplete escape at the end of the line")
			}
			e := p.b[p.i+1]
			var rep byte
			switch e {
			case 't':
				rep = '\t'
			case 'b':
				rep = '\b'
			case 'n':
				rep = '\n'
			case 'r':
				rep = '\r'
			case 'f':
				rep = '\f'
			case '"', '\'', '\\':
				rep = e
			case 'u', 'U':
				r, err := p.uchar()
				if err != nil {
					return Term{}, err
				}
				sb.WriteRune(r)
				from = p.i
				continue
			default:
				return Term{}, p.errorf("invalid escape %q in string literal", p.rest(2))
			}
			sb.WriteByte(rep)
			p.i += 2
			from = p.i
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(p.b[p.i:])
			if r == utf8.RuneError && size == 1 {
				return Term{}, p.errorf("invalid UTF-8 in string literal")
			}
			p.i += size
		default:
			p.i++
		}
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
		start := p.i
		p.i++
		for !p.done() {
			c := p.peek()
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' {
				p.i++
				continue
			}
			break
		}
		tag := string(p.b[start:p.i])
		if !validLangDir(tag) {
			p.i = start
			return Term{}, p.errorf("invalid language tag %q", tag)
		}
		lang, dir, _ := strings.Cut(strings.ToLower(tag[1:]), "--")
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

// validLangDir checks '@' [a-zA-Z]+ ('-' [a-zA-Z0-9]+)* ('--' ('ltr'|'rtl'))?.
func validLangDir(tag string) bool {
	if len(tag) < 2 || tag[0] != '@' {
		return false
	}
	body, dir, hasDir := strings.Cut(tag[1:], "--")
	if hasDir {
		d := strings.ToLower(dir)
		if d != "ltr" && d != "rtl" {
			return false
		}
	}
	for i, sub := range strings.Split(body, "-") {
		if sub == "" {
			return false
		}
		for j := 0; j < len(sub); j++ {
			c := sub[j]
			alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
			digit := c >= '0' && c <= '9'
			if !alpha && !(digit && i > 0) {
				return false
			}
		}
	}
	return true
}
