package graph

import (
	"bufio"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

const hexDigits = "0123456789ABCDEF"

// appendTerm writes the canonical N-Triples form of t (RDF 1.2 canonical N-Triples).
func appendTerm(b *strings.Builder, t Term) {
	switch t.Kind {
	case KindIRI:
		b.WriteByte('<')
		b.WriteString(t.Value)
		b.WriteByte('>')
	case KindBlank:
		b.WriteString("_:")
		b.WriteString(t.Value)
	case KindLiteral:
		b.WriteByte('"')
		appendEscaped(b, t.Value)
		b.WriteByte('"')
		switch {
		case t.Lang != "":
			b.WriteByte('@')
			b.WriteString(t.Lang)
			if t.Dir != "" {
				b.WriteString("--")
				b.WriteString(t.Dir)
			}
		case t.Datatype != "" && t.Datatype != XSDString:
			b.WriteString("^^<")
			b.WriteString(t.Datatype)
			b.WriteByte('>')
		}
	case KindTriple:
		b.WriteString("<<( ")
		b.WriteString(t.Value)
		b.WriteString(" )>>")
	default:
		b.WriteString("<>") // the zero term; Validate rejects it before writing
	}
}

// appendEscaped writes a literal's lexical form with the escapes of canonical N-Triples:
// \" \\ \b \t \n \f \r as ECHAR; other C0 controls, DEL, U+FFFE and U+FFFF as \uXXXX;
// everything else verbatim. Invalid UTF-8 bytes become U+FFFD.
func appendEscaped(b *strings.Builder, s string) {
	start := 0
	flush := func(i int) {
		b.WriteString(s[start:i])
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			var esc string
			switch c {
			case '"':
				esc = `\"`
			case '\\':
				esc = `\\`
			case '\b':
				esc = `\b`
			case '\t':
				esc = `\t`
			case '\n':
				esc = `\n`
			case '\f':
				esc = `\f`
			case '\r':
				esc = `\r`
			default:
				if c < 0x20 || c == 0x7f {
					flush(i)
					writeUchar(b, rune(c))
					i++
					start = i
					continue
				}
				i++
				continue
			}
			flush(i)
			b.WriteString(esc)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			flush(i)
			b.WriteRune(utf8.RuneError)
			i++
			start = i
		case r == 0xFFFE || r == 0xFFFF:
			flush(i)
			writeUchar(b, r)
			i += size
			start = i
		default:
			i += size
		}
	}
	flush(len(s))
}

func writeUchar(b *strings.Builder, r rune) {
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(r>>shift)&0xF])
	}
}

func appendTriple(b *strings.Builder, t Triple) {
	appendTerm(b, t.S)
	b.WriteByte(' ')
	appendTerm(b, t.P)
	b.WriteByte(' ')
	appendTerm(b, t.O)
	b.WriteString(" .")
}

// Writer writes triples as canonical N-Triples, one per line, in the order given.
// Every triple is validated first, so that the output is always valid N-Triples.
type Writer struct {
	w   *bufio.Writer
	buf strings.Builder
	n   int
}

// NewWriter returns a Writer on w. Call Flush when done.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 64<<10)} }

// Write writes one triple, or returns why it is not a valid RDF triple.
func (w *Writer) Write(t Triple) error {
	if err := t.Validate(); err != nil {
		return err
	}
	w.buf.Reset()
	appendTriple(&w.buf, t)
	w.buf.WriteByte('\n')
	w.n++
	_, err := w.w.WriteString(w.buf.String())
	return err
}

// Count returns the number of triples written.
func (w *Writer) Count() int { return w.n }

// Flush writes buffered data to the underlying writer.
func (w *Writer) Flush() error { return w.w.Flush() }

// WriteSorted writes the triples as canonical N-Triples, sorted by their line and
// without duplicates, so that the same graph always gives the same bytes. It validates
// every triple before writing anything.
func WriteSorted(w io.Writer, triples []Triple) error {
	lines := make([]string, 0, len(triples))
	for _, t := range triples {
		if err := t.Validate(); err != nil {
			return err
		}
		lines = append(lines, t.String())
	}
	slices.Sort(lines)
	lines = slices.Compact(lines)
	bw := bufio.NewWriterSize(w, 64<<10)
	for _, l := range lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
