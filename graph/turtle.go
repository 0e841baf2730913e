package graph

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// TurtleOptions configures ReadTurtle.
type TurtleOptions struct {
	// Name is the file name used in errors.
	Name string
	// Base is the base IRI against which relative IRIs are resolved (RFC 3986); a
	// @base or BASE directive replaces it.
	Base string
	// Check, if set, vets every triple of a statement before it is emitted; an error
	// drops the statement and is reported like a syntax error (a loader refuses terms
	// it cannot store this way).
	Check func(Triple) error
	// BlankPrefix scopes the file's blank nodes: the label "_:x" becomes
	// BlankPrefix + "_x", and the n-th anonymous node ([], collections, reifiers)
	// BlankPrefix + "-gn", so that the nodes of two files (or of a file and generated
	// ones) never share a label. The default is "b".
	BlankPrefix string
}

// ReadTurtle reads Turtle (RDF 1.1, with the RDF 1.2 triple terms <<( s p o )>>,
// reified triples << s p o >>, annotations {| … |} and reifiers ~), as YAGO 4.5 writes
// it: @prefix/@base and PREFIX/BASE/VERSION directives, 'a', ';' and ',' lists, blank
// node property lists, collections, any layout of statements over lines. It streams:
// only the current statement is held in memory. The lexical rules (IRIs, strings and
// their escapes, blank node labels, language tags) are those of the N-Triples reader.
//
// emit receives the triples of each complete statement (the slice is reused; copy what
// you keep). A syntax error drops the statement it occurs in, is passed to bad as a
// *ParseError with file:line:col, and parsing resumes after the first line, from the
// error on, whose content ends with '.' (so a bad line of a one-statement-per-line
// dump costs only itself). A non-nil error from emit or bad stops parsing and is
// returned, as is an error reading r.
func ReadTurtle(r io.Reader, opts TurtleOptions, emit func([]Triple) error, bad func(*ParseError) error) error {
	pfx := opts.BlankPrefix
	if pfx == "" {
		pfx = "b"
	}
	p := &turtle{src: r, name: opts.Name, buf: make([]byte, 0, 256<<10), line: 1, nl: -1,
		base: opts.Base, prefixes: map[string]string{}, blankPfx: pfx, check: opts.Check, emit: emit, bad: bad}
	return p.parse()
}

// turtle is the state of ReadTurtle.
type turtle struct {
	src  io.Reader
	name string
	buf  []byte
	pos  int
	eof  bool
	rerr error

	line      int // line of buf[pos]
	lineStart int // offset in buf of the start of that line
	nl        int // offset of the first '\n' at or after pos, if ≥ pos
	clean     int // no '\n' in buf[pos:clean] (when nl < pos)

	base     string
	prefixes map[string]string
	blankPfx string
	anon     int

	pending []Triple
	check   func(Triple) error
	emit    func([]Triple) error
	bad     func(*ParseError) error
}

const (
	rdfFirst   = RDF + "first"
	rdfRest    = RDF + "rest"
	rdfNil     = RDF + "nil"
	rdfReifies = RDF + "reifies"
)

// errorAt returns the syntax error at buffer offset off.
func (p *turtle) errorAt(off int, format string, args ...any) error {
	line, start := p.line, p.lineStart
	if off > p.lineStart {
		seg := p.buf[p.lineStart:min(off, len(p.buf))]
		if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
			line += n
			start = p.lineStart + bytes.LastIndexByte(seg, '\n') + 1
		}
	}
	return &ParseError{File: p.name, Line: line, Col: off - start + 1, Err: fmt.Errorf(format, args...)}
}

func (p *turtle) errorf(format string, args ...any) error { return p.errorAt(p.pos, format, args...) }

// fill reads more input; it returns false at the end of the input.
func (p *turtle) fill() bool {
	if p.eof {
		return false
	}
	if len(p.buf) == cap(p.buf) {
		nb := make([]byte, len(p.buf), 2*cap(p.buf))
		copy(nb, p.buf)
		p.buf = nb
	}
	for {
		n, err := p.src.Read(p.buf[len(p.buf):cap(p.buf)])
		p.buf = p.buf[:len(p.buf)+n]
		if err != nil {
			p.eof = true
			if err != io.EOF {
				p.rerr = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

// compact drops the consumed input (called between statements only, so that no slice
// of the current statement is invalidated).
func (p *turtle) compact() {
	if p.pos > len(p.buf)/2 || p.pos > 1<<20 {
		n := copy(p.buf, p.buf[p.pos:])
		p.lineStart -= p.pos
		p.nl -= p.pos
		p.clean = max(p.clean-p.pos, 0)
		p.buf = p.buf[:n]
		p.pos = 0
	}
}

func (p *turtle) more() bool { return p.pos < len(p.buf) || p.fill() }

func (p *turtle) peek() byte {
	if p.pos < len(p.buf) || p.fill() {
		return p.buf[p.pos]
	}
	return 0
}

// peekAt returns the byte i positions ahead, or 0.
func (p *turtle) peekAt(i int) byte {
	for p.pos+i >= len(p.buf) {
		if !p.fill() {
			return 0
		}
	}
	return p.buf[p.pos+i]
}

func (p *turtle) hasPrefix(s string) bool {
	for i := 0; i < len(s); i++ {
		if p.peekAt(i) != s[i] {
			return false
		}
	}
	return true
}

// window returns the end of the input that a one-line token starting at pos may use:
// just after the next line break, or the end of the input, reading more as needed (but
// no further than MaxLineBytes from pos).
func (p *turtle) window() int {
	if p.nl >= p.pos {
		return p.nl + 1
	}
	from := max(p.pos, p.clean)
	for {
		if i := bytes.IndexByte(p.buf[from:], '\n'); i >= 0 {
			p.nl = from + i
			return p.nl + 1
		}
		p.clean = len(p.buf)
		from = len(p.buf)
		if len(p.buf)-p.pos > MaxLineBytes || !p.fill() {
			return len(p.buf)
		}
	}
}

// scanToken runs a token rule of the shared scanner at pos, within the current line.
func scanToken[T any](p *turtle, rule func(*scanner) (T, error)) (T, error) {
	sc := scanner{b: p.buf[:p.window()], i: p.pos}
	v, err := rule(&sc)
	p.pos = sc.i
	if se, ok := errors.AsType[*syntaxError](err); ok {
		return v, p.errorAt(se.col, "%w", se.err)
	}
	return v, err
}

func (p *turtle) advance() {
	if p.buf[p.pos] == '\n' {
		p.line++
		p.lineStart = p.pos + 1
	}
	p.pos++
}

// ws skips white space and comments.
func (p *turtle) ws() {
	for p.more() {
		switch p.buf[p.pos] {
		case ' ', '\t', '\r', '\n':
			p.advance()
		case '#':
			for p.more() && p.buf[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

// parse reads the whole input.
func (p *turtle) parse() error {
	for {
		p.compact()
		p.ws()
		if !p.more() {
			return p.rerr
		}
		p.pending = p.pending[:0]
		err := p.statement()
		consumed := err == nil // the statement was read to its end
		if err == nil && p.check != nil {
			for _, t := range p.pending {
				if cerr := p.check(t); cerr != nil {
					err = p.errorAt(p.pos, "%w", cerr)
					break
				}
			}
		}
		if p.rerr != nil {
			return fmt.Errorf("read %s: %w", p.name, p.rerr)
		}
		if perr, ok := errors.AsType[*ParseError](err); ok {
			if err := p.bad(perr); err != nil {
				return err
			}
			if !consumed {
				p.recover()
			}
			continue
		}
		if err != nil {
			return err
		}
		if len(p.pending) > 0 {
			if err := p.emit(p.pending); err != nil {
				return err
			}
		}
	}
}

// recover skips to the end of the broken statement: to the end of the first line, from
// the error on, whose content ends with '.' (before an optional comment). Statements
// of YAGO dumps are one per line, so a bad line costs only itself; a multi-line
// statement is skipped up to its last line.
func (p *turtle) recover() {
	for {
		// Find the end of the current line.
		for p.more() && p.buf[p.pos] != '\n' {
			p.pos++
		}
		line := p.buf[p.lineStart:p.pos]
		if !p.more() {
			return
		}
		p.advance() // the newline
		if endsStatement(line) {
			return
		}
	}
}

// endsStatement reports whether a line's content ends with '.', ignoring trailing
// white space and a trailing comment.
func endsStatement(line []byte) bool {
	t := strings.TrimRight(string(line), " \t\r")
	if strings.HasSuffix(t, ".") {
		return true
	}
	for i := len(t) - 1; i > 0; i-- {
		if t[i] == '#' && (t[i-1] == ' ' || t[i-1] == '\t') {
			return strings.HasSuffix(strings.TrimRight(t[:i], " \t"), ".")
		}
	}
	return false
}

func (p *turtle) statement() error {
	c := p.peek()
	if c == '@' {
		return p.directive(true)
	}
	if (c == 'P' || c == 'p' || c == 'B' || c == 'b' || c == 'V' || c == 'v') && p.sparqlDirective() {
		return p.directive(false)
	}
	if err := p.triples(); err != nil {
		return err
	}
	p.ws()
	if p.peek() != '.' {
		if !p.more() {
			return p.errorf("missing '.' at the end of the statement")
		}
		return p.errorf("expected '.' to end the statement, found %q", p.context())
	}
	p.pos++
	return nil
}

// sparqlDirective reports whether a SPARQL-style PREFIX, BASE or VERSION keyword starts
// here.
func (p *turtle) sparqlDirective() bool {
	for _, kw := range []string{"prefix", "base", "version"} {
		ok := true
		for i := 0; i < len(kw); i++ {
			c := p.peekAt(i)
			if c|0x20 != kw[i] {
				ok = false
				break
			}
		}
		if ok {
			n := p.peekAt(len(kw))
			if n == ' ' || n == '\t' || n == '<' || n == '\n' || n == '\r' || n == '"' || n == '\'' {
				return true
			}
		}
	}
	return false
}

func (p *turtle) context() string {
	end := min(p.pos+16, len(p.buf))
	s := string(p.buf[p.pos:end])
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func (p *turtle) word() string {
	start := p.pos
	for p.more() {
		c := p.buf[p.pos]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '@' {
			p.pos++
			continue
		}
		break
	}
	return string(p.buf[start:p.pos])
}

func (p *turtle) directive(at bool) error {
	kw := strings.ToLower(strings.TrimPrefix(p.word(), "@"))
	p.ws()
	switch kw {
	case "prefix":
		start := p.pos
		for p.more() && p.buf[p.pos] != ':' && !isSpace(p.buf[p.pos]) {
			p.pos++
		}
		name := string(p.buf[start:p.pos])
		if p.peek() != ':' {
			return p.errorf("expected ':' after the prefix name %q", name)
		}
		if name != "" && !validPrefixName(name) {
			return p.errorf("invalid prefix name %q", name)
		}
		p.pos++
		p.ws()
		if p.peek() != '<' {
			return p.errorf("expected an IRI after the prefix %q:", name)
		}
		iri, err := p.iriRef()
		if err != nil {
			return err
		}
		p.prefixes[name] = iri
	case "base":
		if p.peek() != '<' {
			return p.errorf("expected an IRI after base")
		}
		iri, err := p.iriRef()
		if err != nil {
			return err
		}
		p.base = iri
	case "version":
		if _, err := p.stringLit(); err != nil {
			return err
		}
	default:
		return p.errorf("unknown directive %q", kw)
	}
	if at {
		p.ws()
		if p.peek() != '.' {
			return p.errorf("expected '.' after the @%s directive", kw)
		}
		p.pos++
	}
	return nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func (p *turtle) add(s, pr, o Term) {
	p.pending = append(p.pending, Triple{S: s, P: pr, O: o})
}

// triples parses subject predicateObjectList, or a blank node property list or
// reified triple standing alone.
func (p *turtle) triples() error {
	var subj Term
	var err error
	switch c := p.peek(); {
	case c == '[':
		subj, err = p.blankPropertyList()
		if err != nil {
			return err
		}
		p.ws()
		if p.peek() == '.' {
			return nil
		}
	case c == '<' && p.peekAt(1) == '<' && p.peekAt(2) != '(':
		subj, err = p.reifiedTriple()
		if err != nil {
			return err
		}
		p.ws()
		if p.peek() == '.' {
			return nil
		}
	default:
		subj, err = p.subject()
		if err != nil {
			return err
		}
	}
	p.ws()
	return p.predicateObjectList(subj)
}

func (p *turtle) subject() (Term, error) {
	switch c := p.peek(); {
	case c == '<':
		if p.peekAt(1) == '<' {
			return Term{}, p.errorf("a triple term <<( … )>> cannot be a subject")
		}
		iri, err := p.iriRef()
		return NewIRI(iri), err
	case c == '_':
		return p.blankLabel()
	case c == '(':
		return p.collection()
	case c == 0:
		return Term{}, p.errorf("missing subject")
	case c == '"' || c == '\'' || c == '+' || c == '-' || isDigit(c):
		return Term{}, p.errorf("a literal cannot be a subject")
	}
	iri, err := p.prefixedName()
	return NewIRI(iri), err
}

func (p *turtle) predicateObjectList(subj Term) error {
	for {
		pred, err := p.verb()
		if err != nil {
			return err
		}
		p.ws()
		if err := p.objectList(subj, pred); err != nil {
			return err
		}
		p.ws()
		if p.peek() != ';' {
			return nil
		}
		for p.peek() == ';' {
			p.pos++
			p.ws()
		}
		if c := p.peek(); c == '.' || c == ']' || c == '}' || c == '|' || c == 0 {
			return nil
		}
	}
}

func (p *turtle) verb() (Term, error) {
	c := p.peek()
	if c == 'a' {
		n := p.peekAt(1)
		if isSpace(n) || n == '<' || n == '"' || n == '[' || n == '(' || n == '_' || n == '\'' {
			p.pos++
			return NewIRI(RDFType), nil
		}
	}
	switch {
	case c == '<':
		iri, err := p.iriRef()
		return NewIRI(iri), err
	case c == 0 || c == '.' || c == ',' || c == ';':
		return Term{}, p.errorf("missing predicate")
	case c == '_' || c == '[' || c == '"' || c == '(':
		return Term{}, p.errorf("a predicate must be an IRI")
	}
	iri, err := p.prefixedName()
	return NewIRI(iri), err
}

func (p *turtle) objectList(subj, pred Term) error {
	for {
		obj, err := p.object()
		if err != nil {
			return err
		}
		p.add(subj, pred, obj)
		p.ws()
		if err := p.annotations(subj, pred, obj); err != nil {
			return err
		}
		if p.peek() != ',' {
			return nil
		}
		p.pos++
		p.ws()
	}
}

// annotations handles the RDF 1.2 reifier '~ id' and annotation blocks '{| … |}'
// after an object: each names a reifier of the triple just asserted.
func (p *turtle) annotations(s, pr, o Term) error {
	var reifier Term
	for {
		switch {
		case p.peek() == '~':
			p.pos++
			p.ws()
			var err error
			switch c := p.peek(); {
			case c == '<':
				var iri string
				iri, err = p.iriRef()
				reifier = NewIRI(iri)
			case c == '_':
				reifier, err = p.blankLabel()
			case c == '{' || c == ',' || c == ';' || c == '.' || c == ']':
				reifier = p.newAnon()
			default:
				var iri string
				iri, err = p.prefixedName()
				reifier = NewIRI(iri)
			}
			if err != nil {
				return err
			}
			p.add(reifier, NewIRI(rdfReifies), NewTripleTerm(Triple{S: s, P: pr, O: o}))
			p.ws()
		case p.peek() == '{' && p.peekAt(1) == '|':
			p.pos += 2
			p.ws()
			if reifier.IsZero() {
				reifier = p.newAnon()
				p.add(reifier, NewIRI(rdfReifies), NewTripleTerm(Triple{S: s, P: pr, O: o}))
			}
			if err := p.predicateObjectList(reifier); err != nil {
				return err
			}
			p.ws()
			if !(p.peek() == '|' && p.peekAt(1) == '}') {
				return p.errorf("expected '|}' to close the annotation")
			}
			p.pos += 2
			p.ws()
			reifier = Term{}
		default:
			return nil
		}
	}
}

func (p *turtle) object() (Term, error) {
	c := p.peek()
	switch {
	case c == '<':
		if p.peekAt(1) == '<' {
			if p.peekAt(2) == '(' {
				return p.tripleTerm()
			}
			return p.reifiedTriple()
		}
		iri, err := p.iriRef()
		return NewIRI(iri), err
	case c == '_':
		return p.blankLabel()
	case c == '[':
		return p.blankPropertyList()
	case c == '(':
		return p.collection()
	case c == '"' || c == '\'':
		return p.rdfLiteral()
	case c == '+' || c == '-' || c == '.' || isDigit(c):
		return p.numeric()
	case c == 0:
		return Term{}, p.errorf("missing object")
	}
	if p.hasPrefix("true") && !isNameChar(p.peekAt(4)) && p.peekAt(4) != ':' {
		p.pos += 4
		return NewTyped("true", XSD+"boolean"), nil
	}
	if p.hasPrefix("false") && !isNameChar(p.peekAt(5)) && p.peekAt(5) != ':' {
		p.pos += 5
		return NewTyped("false", XSD+"boolean"), nil
	}
	iri, err := p.prefixedName()
	return NewIRI(iri), err
}

func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c >= 0x80
}

func (p *turtle) newAnon() Term {
	p.anon++
	return NewBlank(p.blankPfx + "-g" + strconv.Itoa(p.anon))
}

func (p *turtle) blankPropertyList() (Term, error) {
	p.pos++ // '['
	p.ws()
	b := p.newAnon()
	if p.peek() == ']' {
		p.pos++
		return b, nil
	}
	if err := p.predicateObjectList(b); err != nil {
		return Term{}, err
	}
	p.ws()
	if p.peek() != ']' {
		return Term{}, p.errorf("expected ']' to close the blank node, found %q", p.context())
	}
	p.pos++
	return b, nil
}

func (p *turtle) collection() (Term, error) {
	p.pos++ // '('
	p.ws()
	var items []Term
	for p.peek() != ')' {
		if !p.more() {
			return Term{}, p.errorf("unterminated collection")
		}
		o, err := p.object()
		if err != nil {
			return Term{}, err
		}
		items = append(items, o)
		p.ws()
	}
	p.pos++
	if len(items) == 0 {
		return NewIRI(rdfNil), nil
	}
	head := p.newAnon()
	cur := head
	for i, it := range items {
		p.add(cur, NewIRI(rdfFirst), it)
		if i == len(items)-1 {
			p.add(cur, NewIRI(rdfRest), NewIRI(rdfNil))
		} else {
			next := p.newAnon()
			p.add(cur, NewIRI(rdfRest), next)
			cur = next
		}
	}
	return head, nil
}

// tripleTerm parses <<( s p o )>>.
func (p *turtle) tripleTerm() (Term, error) {
	p.pos += 3
	p.ws()
	t, err := p.innerTriple()
	if err != nil {
		return Term{}, err
	}
	p.ws()
	if !p.hasPrefix(")>>") {
		return Term{}, p.errorf("expected ')>>' to close the triple term")
	}
	p.pos += 3
	return NewTripleTerm(t), nil
}

// reifiedTriple parses << s p o [~ id] >>: a reifier node of the (not asserted) triple.
func (p *turtle) reifiedTriple() (Term, error) {
	p.pos += 2
	p.ws()
	t, err := p.innerTriple()
	if err != nil {
		return Term{}, err
	}
	p.ws()
	var reifier Term
	if p.peek() == '~' {
		p.pos++
		p.ws()
		switch c := p.peek(); {
		case c == '<':
			iri, err := p.iriRef()
			if err != nil {
				return Term{}, err
			}
			reifier = NewIRI(iri)
		case c == '_':
			if reifier, err = p.blankLabel(); err != nil {
				return Term{}, err
			}
		case c == '>':
		default:
			iri, err := p.prefixedName()
			if err != nil {
				return Term{}, err
			}
			reifier = NewIRI(iri)
		}
		p.ws()
	}
	if !p.hasPrefix(">>") {
		return Term{}, p.errorf("expected '>>' to close the reified triple")
	}
	p.pos += 2
	if reifier.IsZero() {
		reifier = p.newAnon()
	}
	p.add(reifier, NewIRI(rdfReifies), NewTripleTerm(t))
	return reifier, nil
}

// innerTriple parses the s p o of a triple term or reified triple.
func (p *turtle) innerTriple() (Triple, error) {
	var s Term
	var err error
	switch c := p.peek(); {
	case c == '<' && p.peekAt(1) == '<':
		if p.peekAt(2) == '(' {
			return Triple{}, p.errorf("a triple term cannot be a subject")
		}
		s, err = p.reifiedTriple()
	case c == '[':
		if p.peekAt(1) == ']' {
			p.pos += 2
			s = p.newAnon()
		} else {
			err = p.errorf("only an empty [] may be the subject of a triple term")
		}
	case c == '(':
		err = p.errorf("a collection cannot be in a triple term")
	default:
		s, err = p.subject()
	}
	if err != nil {
		return Triple{}, err
	}
	p.ws()
	pr, err := p.verb()
	if err != nil {
		return Triple{}, err
	}
	p.ws()
	var o Term
	switch p.peek() {
	case '[':
		if p.peekAt(1) == ']' {
			p.pos += 2
			o = p.newAnon()
		} else {
			err = p.errorf("only an empty [] may be in a triple term")
		}
	case '(':
		err = p.errorf("a collection cannot be in a triple term")
	default:
		o, err = p.object()
	}
	return Triple{S: s, P: pr, O: o}, err
}

func (p *turtle) blankLabel() (Term, error) {
	label, err := scanToken(p, (*scanner).blank)
	if err != nil {
		return Term{}, err
	}
	return NewBlank(p.blankPfx + "_" + label), nil
}

// runeAt decodes the rune at p.pos, reading more input for multi-byte runes.
func (p *turtle) runeAt() (rune, int) {
	c := p.peek()
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	for i := 1; i < 4 && p.pos+i >= len(p.buf); i++ {
		if !p.fill() {
			break
		}
	}
	return utf8.DecodeRune(p.buf[p.pos:])
}

// iriRef parses <…> and resolves it against the base. Escapes that decode to
// characters not allowed in IRIs are percent-encoded (YAGO3 writes \u0022).
func (p *turtle) iriRef() (string, error) {
	ref, err := scanToken(p, func(s *scanner) (string, error) { return s.iriRef(true) })
	if err != nil {
		return "", err
	}
	return ResolveIRI(p.base, ref), nil
}

// prefixedName parses PNAME_NS or PNAME_LN and expands it.
func (p *turtle) prefixedName() (string, error) {
	start := p.pos
	// PN_PREFIX up to ':'
	for p.more() {
		c := p.buf[p.pos]
		if c == ':' {
			break
		}
		r, size := p.runeAt()
		if !(IsPNChars(r) || r == '.') {
			break
		}
		p.pos += size
	}
	if p.peek() != ':' {
		p.pos = start
		if !p.more() {
			return "", p.errorf("unexpected end of input")
		}
		return "", p.errorf("unexpected %q (expected an IRI, a prefixed name, a blank node or a literal)", p.context())
	}
	prefix := string(p.buf[start:p.pos])
	if prefix != "" && (!validPrefixName(prefix)) {
		return "", p.errorf("invalid prefix name %q", prefix)
	}
	ns, ok := p.prefixes[prefix]
	if !ok {
		p.pos = start
		return "", p.errorf("undeclared prefix %q", prefix+":")
	}
	p.pos++ // ':'
	local, err := p.localName()
	if err != nil {
		return "", err
	}
	return ns + local, nil
}

// localName parses PN_LOCAL (possibly empty) with its escapes; %HH stays encoded.
func (p *turtle) localName() (string, error) {
	// Fast path: ASCII letters, digits, '_' and '-' up to a delimiter, in the buffer.
	start := p.pos
	i := start
	for i < len(p.buf) {
		c := p.buf[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' && i > start {
			i++
			continue
		}
		break
	}
	if i < len(p.buf) && i > start && (p.buf[i] == ' ' || p.buf[i] == '\t' || p.buf[i] == '\n' || p.buf[i] == '\r' ||
		p.buf[i] == ';' || p.buf[i] == ',' || p.buf[i] == ')' || p.buf[i] == ']') {
		p.pos = i
		return string(p.buf[start:i]), nil
	}
	var sb strings.Builder
	dots := 0 // trailing dots so far
	n := 0
	for p.more() {
		c := p.buf[p.pos]
		switch {
		case c == '\\':
			e := p.peekAt(1)
			if !strings.ContainsRune("_~.-!$&'()*+,;=/?#@%", rune(e)) {
				return "", p.errorf("invalid escape \\%c in a local name", e)
			}
			sb.WriteByte(e)
			p.pos += 2
			dots = 0
		case c == '%':
			if _, ok := hexVal(p.peekAt(1)); !ok {
				return "", p.errorf("invalid percent escape in a local name")
			}
			if _, ok := hexVal(p.peekAt(2)); !ok {
				return "", p.errorf("invalid percent escape in a local name")
			}
			sb.Write(p.buf[p.pos : p.pos+3])
			p.pos += 3
			dots = 0
		case c == ':':
			sb.WriteByte(c)
			p.pos++
			dots = 0
		case c == '.':
			if n == 0 {
				return sb.String(), nil
			}
			sb.WriteByte(c)
			p.pos++
			dots++
		default:
			r, size := p.runeAt()
			ok := IsPNChars(r) || (n == 0 && r >= '0' && r <= '9')
			if n == 0 && !(IsPNCharsU(r) || r >= '0' && r <= '9') {
				ok = false
			}
			if !ok {
				goto done
			}
			sb.WriteRune(r)
			p.pos += size
			dots = 0
		}
		n++
	}
done:
	s := sb.String()
	// Trailing dots end the statement; they are not part of the name.
	p.pos -= dots
	return s[:len(s)-dots], nil
}

func validPrefixName(s string) bool {
	for i, r := range s {
		if i == 0 {
			if !IsPNCharsBase(r) {
				return false
			}
			continue
		}
		if !IsPNChars(r) && r != '.' {
			return false
		}
	}
	return !strings.HasSuffix(s, ".")
}

func (p *turtle) rdfLiteral() (Term, error) {
	s, err := p.stringLit()
	if err != nil {
		return Term{}, err
	}
	switch p.peek() {
	case '@':
		type tag struct{ lang, dir string }
		t, err := scanToken(p, func(sc *scanner) (tag, error) {
			lang, dir, err := sc.langDir()
			return tag{lang, dir}, err
		})
		if err != nil {
			return Term{}, err
		}
		return Term{Kind: KindLiteral, Value: s, Lang: t.lang, Dir: t.dir}, nil
	case '^':
		if p.peekAt(1) != '^' {
			return Term{}, p.errorf("expected '^^' before a datatype")
		}
		p.pos += 2
		var dt string
		if p.peek() == '<' {
			dt, err = p.iriRef()
		} else {
			dt, err = p.prefixedName()
		}
		if err != nil {
			return Term{}, err
		}
		return NewTyped(s, dt), nil
	}
	return NewLiteral(s), nil
}

// stringLit parses "…" or '…' (with the shared rules of N-Triples strings), or
// """…""" or ”'…”', which may span lines.
func (p *turtle) stringLit() (string, error) {
	q := p.peek()
	if q != '"' && q != '\'' {
		return "", p.errorf("expected a string")
	}
	if p.peekAt(1) != q || p.peekAt(2) != q {
		return scanToken(p, (*scanner).quoted)
	}
	open := p.pos
	start := p.pos + 3
	for j := start; ; {
		c, ok := p.byteAt(j)
		switch {
		case !ok:
			return "", p.errorAt(open, "unterminated long string")
		case c == '\\':
			j += 2
			continue
		case c != q:
			j++
			continue
		}
		if c1, _ := p.byteAt(j + 1); c1 != q {
			j++
			continue
		}
		if c2, _ := p.byteAt(j + 2); c2 != q {
			j++
			continue
		}
		// A long string may end with up to two more quotes: """a"""" is a" + '"'.
		end := j
		for n := 0; n < 2; n++ {
			if c, _ := p.byteAt(end + 3); c != q {
				break
			}
			end++
		}
		sc := scanner{b: p.buf}
		v, err := sc.unescape(start, end)
		if se, ok := errors.AsType[*syntaxError](err); ok {
			return "", p.errorAt(se.col, "%w", se.err)
		}
		p.advanceTo(end + 3)
		return string(v), err
	}
}

// byteAt returns buf[i], reading more input as needed; false past the end of the input.
func (p *turtle) byteAt(i int) (byte, bool) {
	for i >= len(p.buf) {
		if !p.fill() {
			return 0, false
		}
	}
	return p.buf[i], true
}

// advanceTo moves pos forward to k, counting the line breaks passed.
func (p *turtle) advanceTo(k int) {
	seg := p.buf[p.pos:k]
	if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
		p.line += n
		p.lineStart = p.pos + bytes.LastIndexByte(seg, '\n') + 1
	}
	p.pos = k
}

// numeric parses INTEGER, DECIMAL or DOUBLE.
func (p *turtle) numeric() (Term, error) {
	start := p.pos
	if c := p.peek(); c == '+' || c == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.more() && isDigit(p.buf[p.pos]) {
			p.pos++
			n++
		}
		return n
	}
	intDigits := digits()
	fracDigits := -1
	if p.peek() == '.' && isDigit(p.peekAt(1)) {
		p.pos++
		fracDigits = digits()
	}
	exp := false
	if c := p.peek(); c == 'e' || c == 'E' {
		save := p.pos
		p.pos++
		if c := p.peek(); c == '+' || c == '-' {
			p.pos++
		}
		if digits() == 0 {
			p.pos = save
		} else {
			exp = true
		}
	}
	lex := string(p.buf[start:p.pos])
	switch {
	case intDigits == 0 && fracDigits <= 0:
		p.pos = start
		return Term{}, p.errorf("invalid number %q", p.context())
	case exp:
		return NewTyped(lex, XSD+"double"), nil
	case fracDigits > 0:
		return NewTyped(lex, XSD+"decimal"), nil
	}
	return NewTyped(lex, XSD+"integer"), nil
}
