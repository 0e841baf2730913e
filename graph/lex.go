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
func HasScheme(s string) bool { return hasScheme(s) }

func hasScheme[T ~string | ~[]byte](s T) bool {
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

// iriStop marks the bytes at which the IRI scanner must look closer: the end '>', an
// escape, a forbidden character, or the start of a multi-byte character.
var iriStop = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c <= 0x20 || c >= utf8.RuneSelf || strings.IndexByte(`<>"{}|^`+"`\\", byte(c)) >= 0
	}
	return t
}()

// strStop marks the bytes at which the string scanner must look closer.
var strStop = [256]bool{'"': true, '\'': true, '\\': true, '\n': true, '\r': true}

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
	b, err := p.iriBytes(lenient)
	return string(b), err
}

// iriBytes is iriRef returning a view of the input (or, when escapes were decoded, a
// new slice).
func (p *scanner) iriBytes(lenient bool) ([]byte, error) {
	start := p.i
	p.i++ // '<'
	from := p.i
	var sb []byte // decoded copy, once an escape was seen
	ascii := true
	for {
		// Skip the ordinary characters at once.
		j := p.i
		for j < len(p.b) && !iriStop[p.b[j]] {
			j++
		}
		p.i = j
		if p.done() {
			p.i = start
			return nil, p.errorf("unterminated IRI %q", p.rest(40))
		}
		c := p.peek()
		switch {
		case c == '>':
			if !ascii && !utf8.Valid(p.b[from:p.i]) {
				return nil, p.errorAt(from, "invalid UTF-8 in IRI")
			}
			v := p.b[from:p.i:p.i]
			if sb != nil {
				v = append(sb, v...)
			}
			p.i++
			return v, nil
		case c == '\\':
			if !ascii && !utf8.Valid(p.b[from:p.i]) {
				return nil, p.errorAt(from, "invalid UTF-8 in IRI")
			}
			sb = append(sb, p.b[from:p.i]...)
			r, err := p.uchar()
			if err != nil {
				return nil, err
			}
			switch {
			case r >= utf8.RuneSelf || !badIRIByte(byte(r)) || r == 0x7f:
				sb = utf8.AppendRune(sb, r)
			case lenient:
				sb = append(sb, '%', hexDigits[r>>4], hexDigits[r&0xF])
			default:
				return nil, p.errorf("escape in IRI encodes the forbidden character %U", r)
			}
			from, ascii = p.i, true
		case c <= 0x20 || c == '<' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' || c == '`':
			return nil, p.errorf("character %q is not allowed in an IRI", c)
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
	b, err := p.blankBytes()
	return string(b), err
}

// blankBytes is blank returning a view of the input.
func (p *scanner) blankBytes() ([]byte, error) {
	if !bytes.HasPrefix(p.b[p.i:], []byte("_:")) {
		return nil, p.errorf("expected a blank node '_:', found %q", p.rest(8))
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
				return nil, p.errorf("invalid first character %q in blank node label", r)
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
		return nil, p.errorf("empty blank node label")
	}
	p.i = end // a trailing '.' belongs to the statement, not the label
	if !p.done() && p.peek() == ':' {
		return nil, p.errorf("character ':' is not allowed in a blank node label")
	}
	return p.b[start:end:end], nil
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
	b, err := p.quotedBytes()
	return string(b), err
}

// quotedBytes is quoted returning a view of the input (or, when escapes were decoded,
// a new slice).
func (p *scanner) quotedBytes() ([]byte, error) {
	q := p.peek()
	p.i++
	from := p.i
	for j := from; j < len(p.b); j++ {
		for j < len(p.b) && !strStop[p.b[j]] {
			j++
		}
		if j == len(p.b) {
			break
		}
		switch p.b[j] {
		case q:
			s, err := p.unescape(from, j)
			if err != nil {
				return nil, err
			}
			p.i = j + 1
			return s, nil
		case '\\':
			j++ // the escaped character cannot end the string
		case '\n', '\r':
			p.i = j
			return nil, p.errorf("line break in a string (use \"\"\" for long strings)")
		}
	}
	p.i = len(p.b)
	return nil, p.errorf("unterminated string literal")
}

// unescape decodes the string body b[from:to] with its ECHAR and UCHAR escapes and
// checks that it is valid UTF-8. Without escapes it returns a view of the input.
func (p *scanner) unescape(from, to int) ([]byte, error) {
	body := p.b[from:to:to]
	if bytes.IndexByte(body, '\\') < 0 {
		if !utf8.Valid(body) {
			return nil, p.errorAt(from, "invalid UTF-8 in string literal")
		}
		return body, nil
	}
	out := make([]byte, 0, len(body))
	save := p.i
	defer func() { p.i = save }()
	p.i = from
	for p.i < to {
		k := bytes.IndexByte(p.b[p.i:to], '\\')
		if k < 0 {
			k = to - p.i
		}
		if !utf8.Valid(p.b[p.i : p.i+k]) {
			return nil, p.errorf("invalid UTF-8 in string literal")
		}
		out = append(out, p.b[p.i:p.i+k]...)
		p.i += k
		if p.i >= to {
			break
		}
		if p.i+1 >= to {
			return nil, p.errorf("incomplete escape at the end of the string")
		}
		switch e := p.b[p.i+1]; e {
		case 't':
			out = append(out, '\t')
		case 'b':
			out = append(out, '\b')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 'f':
			out = append(out, '\f')
		case '"', '\'', '\\':
			out = append(out, e)
		case 'u', 'U':
			r, err := p.uchar()
			if err != nil {
				return nil, err
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return nil, p.errorf("invalid escape %q in string literal", p.rest(2))
		}
		p.i += 2
	}
	return out, nil
}

// langDir reads a language tag with an optional base direction at '@':
// '@' [a-zA-Z]+ ('-' [a-zA-Z0-9]+)* ('--' ('ltr'|'rtl'))?. The language is returned in
// lower case (RDF compares tags case-insensitively), the direction as "ltr" or "rtl".
func (p *scanner) langDir() (lang, dir string, err error) {
	l, d, err := p.langDirBytes()
	return string(l), string(d), err
}

// langDirBytes is langDir returning views of the input, or a lower-cased copy when the
// tag has upper-case letters.
func (p *scanner) langDirBytes() (lang, dir []byte, err error) {
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
	tag := p.b[start+1 : p.i : p.i]
	if !validLangDir(tag) {
		p.i = start
		return nil, nil, p.errorf("invalid language tag @%s", tag)
	}
	for _, c := range tag {
		if c >= 'A' && c <= 'Z' {
			tag = bytes.ToLower(tag)
			break
		}
	}
	lang, dir, _ = bytes.Cut(tag, []byte("--"))
	return lang, dir, nil
}

// validLangDir checks a language tag without its '@':
// [a-zA-Z]+ ('-' [a-zA-Z0-9]+)* ('--' ('ltr'|'rtl'))?.
func validLangDir(tag []byte) bool {
	body, dir, hasDir := bytes.Cut(tag, []byte("--"))
	if hasDir && !bytes.EqualFold(dir, []byte("ltr")) && !bytes.EqualFold(dir, []byte("rtl")) {
		return false
	}
	sub, n := 0, 0 // subtag number, its length so far
	for _, c := range body {
		switch {
		case c == '-':
			if n == 0 {
				return false
			}
			sub, n = sub+1, 0
			continue
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && sub > 0:
		default:
			return false
		}
		n++
	}
	return n > 0
}
