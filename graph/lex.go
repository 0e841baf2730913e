package graph

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// The lexical rules shared by the N-Triples reader and the Turtle parser: character
// classes, IRIREF, blank node labels, quoted strings with their escapes (ECHAR and
// UCHAR), and language tags with an optional base direction. Both parsers scan their
// tokens with a scanner over the bytes of the current line, so that a rule is written
// once.

// IsPNCharsBase reports whether r is a PN_CHARS_BASE character.
func IsPNCharsBase(r rune) bool {
	switch {
	case r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		return true
	case r >= 0xC0 && r <= 0xD6, r >= 0xD8 && r <= 0xF6, r >= 0xF8 && r <= 0x2FF,
		r >= 0x370 && r <= 0x37D, r >= 0x37F && r <= 0x1FFF, r >= 0x200C && r <= 0x200D,
		r >= 0x2070 && r <= 0x218F, r >= 0x2C00 && r <= 0x2FEF, r >= 0x3001 && r <= 0xD7FF,
		r >= 0xF900 && r <= 0xFDCF, r >= 0xFDF0 && r <= 0xFFFD, r >= 0x10000 && r <= 0xEFFFF:
		return r != utf8.RuneError
	}
	return false
}

// IsPNCharsU reports whether r is a PN_CHARS_U character (PN_CHARS_BASE or '_').
func IsPNCharsU(r rune) bool { return r == '_' || IsPNCharsBase(r) }

// IsPNChars reports whether r is a PN_CHARS character.
func IsPNChars(r rune) bool {
	return IsPNCharsU(r) || r == '-' || (r >= '0' && r <= '9') || r == 0xB7 ||
		(r >= 0x300 && r <= 0x36F) || (r >= 0x203F && r <= 0x2040)
}

// HasScheme reports whether s starts with a URI scheme followed by ':' (scheme = ALPHA
// *( ALPHA / DIGIT / "+" / "-" / "." )), i.e. whether s is an absolute IRI.
func HasScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// badIRIByte reports the ASCII characters that an IRIREF may not contain: controls,
// space and <>"{}|^`\ (and DEL, which N-Triples allows but no IRI should hold).
func badIRIByte(c byte) bool {
	return c <= 0x20 || c == '<' || c == '>' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' || c == '`' || c == '\\' || c == 0x7f
}

// EscapeIRIRef percent-encodes the ASCII characters that an IRIREF may not contain
// (controls, space and <>"{}|^`\), so that a name read from a non-RDF source (a YAGO3
// TSV name such as `William_"Mickey"_Stevenson`) can be written as N-Triples. Unlike
// EscapeIRI it leaves everything else alone and does not require an absolute IRI.
func EscapeIRIRef(s string) string {
	i := 0
	for i < len(s) && !badIRIByte(s[i]) {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		if c := s[i]; badIRIByte(c) {
			pct(&b, c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// DecodeUCHAR decodes the \uXXXX and \UXXXXXXXX escapes of s (YAGO3 writes them in
// names); any other backslash is an error.
func DecodeUCHAR(s string) (string, error) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, nil
	}
	var b strings.Builder
	p := scanner{b: []byte(s)}
	for !p.done() {
		k := bytes.IndexByte(p.b[p.i:], '\\')
		if k < 0 {
			b.Write(p.b[p.i:])
			break
		}
		b.Write(p.b[p.i : p.i+k])
		p.i += k
		r, err := p.uchar()
		if err != nil {
			return "", fmt.Errorf("invalid escape in %q: %w", s, errors.Unwrap(err))
		}
		b.WriteRune(r)
	}
	return b.String(), nil
}

// syntaxError is a lexical or grammatical error at a byte offset of the scanned input.
type syntaxError struct {
	col int // byte offset in the scanner's input
	err error
}

func (e *syntaxError) Error() string { return fmt.Sprintf("column %d: %v", e.col+1, e.err) }
func (e *syntaxError) Unwrap() error { return e.err }

// scanner reads tokens from b starting at i. It never reads past len(b): a token that
// does not end within b is an error (an unterminated IRI or string).
type scanner struct {
	b []byte
	i int
}

func (p *scanner) init(b []byte) { p.b, p.i = b, 0 }
func (p *scanner) done() bool    { return p.i >= len(p.b) }
func (p *scanner) peek() byte    { return p.b[p.i] }

func (p *scanner) rest(n int) string {
	r := p.b[p.i:]
	if len(r) > n {
		r = r[:n]
	}
	return string(r)
}

func (p *scanner) errorf(format string, args ...any) error {
	return &syntaxError{col: p.i, err: fmt.Errorf(format, args...)}
}

func (p *scanner) errorAt(at int, format string, args ...any) error {
	return &syntaxError{col: at, err: fmt.Errorf(format, args...)}
}

// ws skips spaces and tabs.
func (p *scanner) ws() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t') {
		p.i++
	}
}

// iriRef reads an IRIREF at '<': ([^#x00-#x20<>"{}|^`\] | UCHAR)* '>', and returns the
// IRI as written, escapes decoded; whether it must be absolute is the caller's rule.
// An escape that decodes to a character IRIs may not contain is an error, or, with
// lenient, is percent-encoded (YAGO3 writes \u0022 for '"').
func (p *scanner) iriRef(lenient bool) (string, error) {
	start := p.i
	p.i++ // '<'
	from := p.i
	var sb *strings.Builder
	ascii := true
	for {
		if p.done() {
			p.i = start
			return "", p.errorf("unterminated IRI %q", p.rest(40))
		}
		c := p.peek()
		switch {
		case c == '>':
			if !ascii && !utf8.Valid(p.b[from:p.i]) {
				return "", p.errorAt(from, "invalid UTF-8 in IRI")
			}
			var s string
			if sb == nil {
				s = string(p.b[from:p.i])
			} else {
				sb.Write(p.b[from:p.i])
				s = sb.String()
			}
			p.i++
			return s, nil
		case c == '\\':
			if !ascii && !utf8.Valid(p.b[from:p.i]) {
				return "", p.errorAt(from, "invalid UTF-8 in IRI")
			}
			if sb == nil {
				sb = &strings.Builder{}
			}
			sb.Write(p.b[from:p.i])
			r, err := p.uchar()
			if err != nil {
				return "", err
			}
			switch {
			case r >= utf8.RuneSelf || !badIRIByte(byte(r)) || r == 0x7f:
				sb.WriteRune(r)
			case lenient:
				pct(sb, byte(r))
			default:
				return "", p.errorf("escape in IRI encodes the forbidden character %U", r)
			}
			from, ascii = p.i, true
		case c <= 0x20 || c == '<' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' || c == '`':
			return "", p.errorf("character %q is not allowed in an IRI", c)
		default:
			if c >= utf8.RuneSelf {
				ascii = false
			}
			p.i++
		}
	}
}

// uchar reads \uXXXX or \UXXXXXXXX at p.i.
func (p *scanner) uchar() (rune, error) {
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
// A trailing '.' is left for the statement.
func (p *scanner) blank() (string, error) {
	if !bytes.HasPrefix(p.b[p.i:], []byte("_:")) {
		return "", p.errorf("expected a blank node '_:', found %q", p.rest(8))
	}
	p.i += 2
	start := p.i
	end := start
	first := true
	for !p.done() {
		r, size := rune(p.b[p.i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(p.b[p.i:])
		}
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
	var p scanner
	p.init([]byte("_:" + s))
	l, err := p.blank()
	return err == nil && l == s && p.done()
}

// quoted reads a one-line string between quotes (the quote character at p.i, '"' or
// '\”), decoding ECHAR and UCHAR escapes. Line breaks are not allowed inside.
func (p *scanner) quoted() (string, error) {
	q := p.peek()
	p.i++
	from := p.i
	for j := from; j < len(p.b); j++ {
		switch p.b[j] {
		case q:
			s, err := p.unescape(from, j)
			if err != nil {
				return "", err
			}
			p.i = j + 1
			return s, nil
		case '\\':
			j++ // the escaped character cannot end the string
		case '\n', '\r':
			p.i = j
			return "", p.errorf("line break in a string (use \"\"\" for long strings)")
		}
	}
	p.i = len(p.b)
	return "", p.errorf("unterminated string literal")
}

// unescape decodes the string body b[from:to] with its ECHAR and UCHAR escapes and
// checks that it is valid UTF-8.
func (p *scanner) unescape(from, to int) (string, error) {
	body := p.b[from:to]
	if bytes.IndexByte(body, '\\') < 0 {
		if !utf8.Valid(body) {
			return "", p.errorAt(from, "invalid UTF-8 in string literal")
		}
		return string(body), nil
	}
	var sb strings.Builder
	sb.Grow(len(body))
	save := p.i
	defer func() { p.i = save }()
	p.i = from
	for p.i < to {
		k := bytes.IndexByte(p.b[p.i:to], '\\')
		if k < 0 {
			k = to - p.i
		}
		if !utf8.Valid(p.b[p.i : p.i+k]) {
			return "", p.errorf("invalid UTF-8 in string literal")
		}
		sb.Write(p.b[p.i : p.i+k])
		p.i += k
		if p.i >= to {
			break
		}
		if p.i+1 >= to {
			return "", p.errorf("incomplete escape at the end of the string")
		}
		switch e := p.b[p.i+1]; e {
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
			continue
		default:
			return "", p.errorf("invalid escape %q in string literal", p.rest(2))
		}
		p.i += 2
	}
	return sb.String(), nil
}

// langDir reads a language tag with an optional base direction at '@':
// '@' [a-zA-Z]+ ('-' [a-zA-Z0-9]+)* ('--' ('ltr'|'rtl'))?. The language is returned in
// lower case (RDF compares tags case-insensitively), the direction as "ltr" or "rtl".
func (p *scanner) langDir() (lang, dir string, err error) {
	start := p.i
	p.i++ // '@'
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
		return "", "", p.errorf("invalid language tag %s", tag)
	}
	lang, dir, _ = strings.Cut(strings.ToLower(tag[1:]), "--")
	return lang, dir, nil
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
