package ontology

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/graph"
)

// turtleParser reads Turtle (RDF 1.1, with the RDF 1.2 triple terms <<( s p o )>>,
// reified triples << s p o >>, annotations {| … |} and reifiers ~), as YAGO 4.5 writes
// it: @prefix/@base and PREFIX/BASE directives, 'a', ';' and ',' lists, blank node
// property lists, collections, any layout of statements over lines. It streams: only
// the current statement is held in memory.
//
// A syntax error drops the statement it occurs in (none of its triples is emitted),
// is reported with file:line:col, and parsing resumes after the next '.' that ends a
// line or is followed by white space.
type turtleParser struct {
	src  io.Reader
	name string
	buf  []byte
	pos  int
	eof  bool
	rerr error

	line      int // line of buf[pos]
	lineStart int // offset in buf of the start of that line

	base     string
	prefixes map[string]string
	blank    func(label string) string // renames a blank node label (file scope)
	anon     int

	pending []graph.Triple
	// emit receives the triples of each complete statement.
	emit func([]graph.Triple) error
	// bad receives each syntax error; a non-nil return stops parsing.
	bad func(*graph.ParseError) error
}

const (
	rdfFirst   = graph.RDF + "first"
	rdfRest    = graph.RDF + "rest"
	rdfNil     = graph.RDF + "nil"
	rdfReifies = graph.RDF + "reifies"
)

func newTurtleParser(r io.Reader, name string, blank func(string) string) *turtleParser {
	return &turtleParser{src: r, name: name, buf: make([]byte, 0, 256<<10), line: 1,
		prefixes: map[string]string{}, blank: blank}
}

// syntaxErr is a Turtle syntax error at a position.
type syntaxErr struct {
	line, col int
	msg       string
}

func (e *syntaxErr) Error() string { return e.msg }

func (p *turtleParser) errorf(format string, args ...any) error {
	return &syntaxErr{line: p.line, col: p.pos - p.lineStart + 1, msg: fmt.Sprintf(format, args...)}
}

// fill reads more input; it returns false at the end of the input.
func (p *turtleParser) fill() bool {
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
func (p *turtleParser) compact() {
	if p.pos > len(p.buf)/2 || p.pos > 1<<20 {
		n := copy(p.buf, p.buf[p.pos:])
		p.lineStart -= p.pos
		p.buf = p.buf[:n]
		p.pos = 0
	}
}

func (p *turtleParser) more() bool { return p.pos < len(p.buf) || p.fill() }

func (p *turtleParser) peek() byte {
	if p.pos < len(p.buf) || p.fill() {
		return p.buf[p.pos]
	}
	return 0
}

// peekAt returns the byte i positions ahead, or 0.
func (p *turtleParser) peekAt(i int) byte {
	for p.pos+i >= len(p.buf) {
		if !p.fill() {
			return 0
		}
	}
	return p.buf[p.pos+i]
}

func (p *turtleParser) hasPrefix(s string) bool {
	for i := 0; i < len(s); i++ {
		if p.peekAt(i) != s[i] {
			return false
		}
	}
	return true
}

func (p *turtleParser) advance() {
	if p.buf[p.pos] == '\n' {
		p.line++
		p.lineStart = p.pos + 1
	}
	p.pos++
}

// ws skips white space and comments.
func (p *turtleParser) ws() {
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
func (p *turtleParser) parse() error {
	for {
		p.compact()
		p.ws()
		if !p.more() {
			return p.rerr
		}
		p.pending = p.pending[:0]
		err := p.statement()
		consumed := err == nil // the statement was read to its end
		if err == nil {
			for _, t := range p.pending {
				if cerr := checkTriple(t); cerr != nil {
					err = &syntaxErr{line: p.line, col: p.pos - p.lineStart + 1, msg: cerr.Error()}
					break
				}
			}
		}
		if p.rerr != nil {
			return fmt.Errorf("read %s: %w", p.name, p.rerr)
		}
		var se *syntaxErr
		if errors.As(err, &se) {
			perr := &graph.ParseError{File: p.name, Line: se.line, Col: se.col, Err: errors.New(se.msg)}
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
func (p *turtleParser) recover() {
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

func (p *turtleParser) statement() error {
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
func (p *turtleParser) sparqlDirective() bool {
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

func (p *turtleParser) context() string {
	end := min(p.pos+16, len(p.buf))
	s := string(p.buf[p.pos:end])
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func (p *turtleParser) word() string {
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

func (p *turtleParser) directive(at bool) error {
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

func (p *turtleParser) add(s, pr, o graph.Term) {
	p.pending = append(p.pending, graph.Triple{S: s, P: pr, O: o})
}

// triples parses subject predicateObjectList, or a blank node property list or
// reified triple standing alone.
func (p *turtleParser) triples() error {
	var subj graph.Term
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

func (p *turtleParser) subject() (graph.Term, error) {
	switch c := p.peek(); {
	case c == '<':
		if p.peekAt(1) == '<' {
			return graph.Term{}, p.errorf("a triple term <<( … )>> cannot be a subject")
		}
		iri, err := p.iriRef()
		return graph.NewIRI(iri), err
	case c == '_':
		return p.blankLabel()
	case c == '(':
		return p.collection()
	case c == 0:
		return graph.Term{}, p.errorf("missing subject")
	case c == '"' || c == '\'' || c == '+' || c == '-' || isDigit(c):
		return graph.Term{}, p.errorf("a literal cannot be a subject")
	}
	iri, err := p.prefixedName()
	return graph.NewIRI(iri), err
}

func (p *turtleParser) predicateObjectList(subj graph.Term) error {
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

func (p *turtleParser) verb() (graph.Term, error) {
	c := p.peek()
	if c == 'a' {
		n := p.peekAt(1)
		if isSpace(n) || n == '<' || n == '"' || n == '[' || n == '(' || n == '_' || n == '\'' {
			p.pos++
			return graph.NewIRI(graph.RDFType), nil
		}
	}
	switch {
	case c == '<':
		iri, err := p.iriRef()
		return graph.NewIRI(iri), err
	case c == 0 || c == '.' || c == ',' || c == ';':
		return graph.Term{}, p.errorf("missing predicate")
	case c == '_' || c == '[' || c == '"' || c == '(':
		return graph.Term{}, p.errorf("a predicate must be an IRI")
	}
	iri, err := p.prefixedName()
	return graph.NewIRI(iri), err
}

func (p *turtleParser) objectList(subj, pred graph.Term) error {
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
func (p *turtleParser) annotations(s, pr, o graph.Term) error {
	var reifier graph.Term
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
				reifier = graph.NewIRI(iri)
			case c == '_':
				reifier, err = p.blankLabel()
			case c == '{' || c == ',' || c == ';' || c == '.' || c == ']':
				reifier = p.newAnon()
			default:
				var iri string
				iri, err = p.prefixedName()
				reifier = graph.NewIRI(iri)
			}
			if err != nil {
				return err
			}
			p.add(reifier, graph.NewIRI(rdfReifies), graph.NewTripleTerm(graph.Triple{S: s, P: pr, O: o}))
			p.ws()
		case p.peek() == '{' && p.peekAt(1) == '|':
			p.pos += 2
			p.ws()
			if reifier.IsZero() {
				reifier = p.newAnon()
				p.add(reifier, graph.NewIRI(rdfReifies), graph.NewTripleTerm(graph.Triple{S: s, P: pr, O: o}))
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
			reifier = graph.Term{}
		default:
			return nil
		}
	}
}

func (p *turtleParser) object() (graph.Term, error) {
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
		return graph.NewIRI(iri), err
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
		return graph.Term{}, p.errorf("missing object")
	}
	if p.hasPrefix("true") && !isNameChar(p.peekAt(4)) && p.peekAt(4) != ':' {
		p.pos += 4
		return graph.NewTyped("true", graph.XSD+"boolean"), nil
	}
	if p.hasPrefix("false") && !isNameChar(p.peekAt(5)) && p.peekAt(5) != ':' {
		p.pos += 5
		return graph.NewTyped("false", graph.XSD+"boolean"), nil
	}
	iri, err := p.prefixedName()
	return graph.NewIRI(iri), err
}

func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c >= 0x80
}

func (p *turtleParser) newAnon() graph.Term {
	p.anon++
	return graph.NewBlank(p.blank("\x00" + strconv.Itoa(p.anon)))
}

func (p *turtleParser) blankPropertyList() (graph.Term, error) {
	p.pos++ // '['
	p.ws()
	b := p.newAnon()
	if p.peek() == ']' {
		p.pos++
		return b, nil
	}
	if err := p.predicateObjectList(b); err != nil {
		return graph.Term{}, err
	}
	p.ws()
	if p.peek() != ']' {
		return graph.Term{}, p.errorf("expected ']' to close the blank node, found %q", p.context())
	}
	p.pos++
	return b, nil
}

func (p *turtleParser) collection() (graph.Term, error) {
	p.pos++ // '('
	p.ws()
	var items []graph.Term
	for p.peek() != ')' {
		if !p.more() {
			return graph.Term{}, p.errorf("unterminated collection")
		}
		o, err := p.object()
		if err != nil {
			return graph.Term{}, err
		}
		items = append(items, o)
		p.ws()
	}
	p.pos++
	if len(items) == 0 {
		return graph.NewIRI(rdfNil), nil
	}
	head := p.newAnon()
	cur := head
	for i, it := range items {
		p.add(cur, graph.NewIRI(rdfFirst), it)
		if i == len(items)-1 {
			p.add(cur, graph.NewIRI(rdfRest), graph.NewIRI(rdfNil))
		} else {
			next := p.newAnon()
			p.add(cur, graph.NewIRI(rdfRest), next)
			cur = next
		}
	}
	return head, nil
}

// tripleTerm parses <<( s p o )>>.
func (p *turtleParser) tripleTerm() (graph.Term, error) {
	p.pos += 3
	p.ws()
	t, err := p.innerTriple()
	if err != nil {
		return graph.Term{}, err
	}
	p.ws()
	if !p.hasPrefix(")>>") {
		return graph.Term{}, p.errorf("expected ')>>' to close the triple term")
	}
	p.pos += 3
	return graph.NewTripleTerm(t), nil
}

// reifiedTriple parses << s p o [~ id] >>: a reifier node of the (not asserted) triple.
func (p *turtleParser) reifiedTriple() (graph.Term, error) {
	p.pos += 2
	p.ws()
	t, err := p.innerTriple()
	if err != nil {
		return graph.Term{}, err
	}
	p.ws()
	var reifier graph.Term
	if p.peek() == '~' {
		p.pos++
		p.ws()
		switch c := p.peek(); {
		case c == '<':
			iri, err := p.iriRef()
			if err != nil {
				return graph.Term{}, err
			}
			reifier = graph.NewIRI(iri)
		case c == '_':
			if reifier, err = p.blankLabel(); err != nil {
				return graph.Term{}, err
			}
		case c == '>':
		default:
			iri, err := p.prefixedName()
			if err != nil {
				return graph.Term{}, err
			}
			reifier = graph.NewIRI(iri)
		}
		p.ws()
	}
	if !p.hasPrefix(">>") {
		return graph.Term{}, p.errorf("expected '>>' to close the reified triple")
	}
	p.pos += 2
	if reifier.IsZero() {
		reifier = p.newAnon()
	}
	p.add(reifier, graph.NewIRI(rdfReifies), graph.NewTripleTerm(t))
	return reifier, nil
}

// innerTriple parses the s p o of a triple term or reified triple.
func (p *turtleParser) innerTriple() (graph.Triple, error) {
	var s graph.Term
	var err error
	switch c := p.peek(); {
	case c == '<' && p.peekAt(1) == '<':
		if p.peekAt(2) == '(' {
			return graph.Triple{}, p.errorf("a triple term cannot be a subject")
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
		return graph.Triple{}, err
	}
	p.ws()
	pr, err := p.verb()
	if err != nil {
		return graph.Triple{}, err
	}
	p.ws()
	var o graph.Term
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
	return graph.Triple{S: s, P: pr, O: o}, err
}

func (p *turtleParser) blankLabel() (graph.Term, error) {
	if p.peekAt(1) != ':' {
		return graph.Term{}, p.errorf("expected '_:' to start a blank node")
	}
	p.pos += 2
	start := p.pos
	end := start
	first := true
	for p.more() {
		r, size := p.runeAt()
		if first {
			if !graph.IsPNCharsU(r) && !(r >= '0' && r <= '9') {
				return graph.Term{}, p.errorf("invalid blank node label")
			}
			first = false
			p.pos += size
			end = p.pos
			continue
		}
		if r == '.' {
			p.pos += size
			continue
		}
		if !graph.IsPNChars(r) {
			break
		}
		p.pos += size
		end = p.pos
	}
	if first {
		return graph.Term{}, p.errorf("empty blank node label")
	}
	p.pos = end
	return graph.NewBlank(p.blank(string(p.buf[start:end]))), nil
}

// runeAt decodes the rune at p.pos, reading more input for multi-byte runes.
func (p *turtleParser) runeAt() (rune, int) {
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
func (p *turtleParser) iriRef() (string, error) {
	p.pos++ // '<'
	var sb strings.Builder
	start := p.pos
	for {
		if !p.more() {
			return "", p.errorf("unterminated IRI")
		}
		c := p.buf[p.pos]
		switch {
		case c == '>':
			sb.Write(p.buf[start:p.pos])
			p.pos++
			return resolveIRI(p.base, sb.String()), nil
		case c == '\\':
			sb.Write(p.buf[start:p.pos])
			r, err := p.uchar()
			if err != nil {
				return "", err
			}
			if r < utf8.RuneSelf && badIRIByte(byte(r)) {
				sb.WriteString(escapeIRIChars(string(rune(r))))
			} else {
				sb.WriteRune(r)
			}
			start = p.pos
		case c == '\n' || c <= 0x20 || c == '<' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' || c == '`':
			return "", p.errorf("character %q is not allowed in an IRI", c)
		default:
			p.pos++
		}
	}
}

// uchar reads \uXXXX or \UXXXXXXXX.
func (p *turtleParser) uchar() (rune, error) {
	n := 0
	switch p.peekAt(1) {
	case 'u':
		n = 4
	case 'U':
		n = 8
	default:
		return 0, p.errorf("invalid escape \\%c (only \\u and \\U are allowed here)", p.peekAt(1))
	}
	var r rune
	for i := 0; i < n; i++ {
		v, ok := hexVal(p.peekAt(2 + i))
		if !ok {
			return 0, p.errorf("invalid hex digit in a \\%c escape", p.peekAt(1))
		}
		r = r<<4 | rune(v)
	}
	if r > utf8.MaxRune || (r >= 0xD800 && r <= 0xDFFF) {
		return 0, p.errorf("escape is not a Unicode scalar value")
	}
	p.pos += 2 + n
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

// prefixedName parses PNAME_NS or PNAME_LN and expands it.
func (p *turtleParser) prefixedName() (string, error) {
	start := p.pos
	// PN_PREFIX up to ':'
	for p.more() {
		c := p.buf[p.pos]
		if c == ':' {
			break
		}
		r, size := p.runeAt()
		if !(graph.IsPNChars(r) || r == '.') {
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
func (p *turtleParser) localName() (string, error) {
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
			ok := graph.IsPNChars(r) || (n == 0 && r >= '0' && r <= '9')
			if n == 0 && !(graph.IsPNCharsU(r) || r >= '0' && r <= '9') {
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
			if !graph.IsPNCharsBase(r) {
				return false
			}
			continue
		}
		if !graph.IsPNChars(r) && r != '.' {
			return false
		}
	}
	return !strings.HasSuffix(s, ".")
}

func (p *turtleParser) rdfLiteral() (graph.Term, error) {
	s, err := p.stringLit()
	if err != nil {
		return graph.Term{}, err
	}
	switch p.peek() {
	case '@':
		p.pos++
		start := p.pos
		for p.more() {
			c := p.buf[p.pos]
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' {
				p.pos++
				continue
			}
			break
		}
		tag := string(p.buf[start:p.pos])
		lang, dir, hasDir := strings.Cut(tag, "--")
		if lang == "" || !validLang(lang) || hasDir && dir != "ltr" && dir != "rtl" {
			p.pos = start - 1
			return graph.Term{}, p.errorf("invalid language tag @%s", tag)
		}
		t := graph.NewLangString(s, lang)
		if hasDir {
			t.Dir = dir
		}
		return t, nil
	case '^':
		if p.peekAt(1) != '^' {
			return graph.Term{}, p.errorf("expected '^^' before a datatype")
		}
		p.pos += 2
		var dt string
		if p.peek() == '<' {
			dt, err = p.iriRef()
		} else {
			dt, err = p.prefixedName()
		}
		if err != nil {
			return graph.Term{}, err
		}
		return graph.NewTyped(s, dt), nil
	}
	return graph.NewLiteral(s), nil
}

func validLang(s string) bool {
	for i, sub := range strings.Split(s, "-") {
		if sub == "" {
			return false
		}
		for j := 0; j < len(sub); j++ {
			c := sub[j]
			alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
			if !alpha && !(i > 0 && c >= '0' && c <= '9') {
				return false
			}
		}
	}
	return true
}

// stringLit parses "…", '…', """…""" or ”'…”' with escapes.
func (p *turtleParser) stringLit() (string, error) {
	q := p.peek()
	if q != '"' && q != '\'' {
		return "", p.errorf("expected a string")
	}
	long := p.peekAt(1) == q && p.peekAt(2) == q
	if long {
		p.pos += 3
	} else {
		p.pos++
	}
	var sb strings.Builder
	start := p.pos
	for {
		if !p.more() {
			return "", p.errorf("unterminated string")
		}
		c := p.buf[p.pos]
		switch {
		case c == q && !long:
			sb.Write(p.buf[start:p.pos])
			p.pos++
			return sb.String(), nil
		case c == q && long && p.peekAt(1) == q && p.peekAt(2) == q:
			// A long string may end with up to two more quotes: """a"""" is a" + '"'.
			sb.Write(p.buf[start:p.pos])
			for p.peekAt(3) == q {
				sb.WriteByte(q)
				p.pos++
			}
			p.pos += 3
			return sb.String(), nil
		case c == '\n' || c == '\r':
			if !long {
				return "", p.errorf("line break in a string (use \"\"\" for long strings)")
			}
			p.advance()
		case c == '\\':
			sb.Write(p.buf[start:p.pos])
			e := p.peekAt(1)
			switch e {
			case 't':
				sb.WriteByte('\t')
			case 'b':
				sb.WriteByte('\b')
			case 'n':
				sb.WriteByte('\n')
			case 'r':
				sb.WriteByte('\r')
			case 'f':
				sb.WriteByte('\f')
			case '"', '\'', '\\':
				sb.WriteByte(e)
			case 'u', 'U':
				r, err := p.uchar()
				if err != nil {
					return "", err
				}
				sb.WriteRune(r)
				start = p.pos
				continue
			default:
				return "", p.errorf("invalid escape \\%c in a string", e)
			}
			p.pos += 2
			start = p.pos
		default:
			p.pos++
		}
	}
}

// numeric parses INTEGER, DECIMAL or DOUBLE.
func (p *turtleParser) numeric() (graph.Term, error) {
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
		return graph.Term{}, p.errorf("invalid number %q", p.context())
	case exp:
		return graph.NewTyped(lex, graph.XSD+"double"), nil
	case fracDigits > 0:
		return graph.NewTyped(lex, graph.XSD+"decimal"), nil
	}
	return graph.NewTyped(lex, graph.XSD+"integer"), nil
}
