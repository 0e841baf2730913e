package records

import (
	"bytes"
	"io"

	"golang.org/x/net/html"
)

// tokenSource is what the tree builder reads tokens from: golang.org/x/net/html's
// Tokenizer, or fastTokenizer.
type tokenSource interface {
	Next() html.TokenType
	Err() error
	Text() []byte
	Raw() []byte
	TagName() ([]byte, bool)
	TagAttr() ([]byte, []byte, bool)
	AllowCDATA(bool)
	NextIsNotRawText()
}

// fastTokenizer produces the tokens html.Tokenizer produces, for pages in the plain
// form most pages have, straight from the page's bytes (html.Tokenizer copies every
// byte into a buffer of its own and reads it back one call at a time). It stops
// (Failed) at anything outside that form and the page is read again with
// html.Tokenizer: a tag that does not end before the input does, an end tag "</"
// not followed by a letter, a bogus comment (<?…>, <!x…>), CDATA in SVG, a comment
// that starts with > or -> or holds --!, a script holding <!-- (the escape states of
// script data), plaintext, or a NUL. Start and end tags are only delimited here
// (the first > outside quotes); the builder's scanTag reads them and makes the page
// fall back when a tag is not plain. Text is returned as html.Tokenizer's Text
// returns it: carriage returns converted, character references unescaped (but in
// raw text), in a buffer of its own: the page's bytes are never written.
type fastTokenizer struct {
	in         []byte
	pos        int
	start, end int // the current token's span in in
	tt         html.TokenType
	data       []byte
	rawTag     string
	allowCDATA bool
	failed     bool
	buf        []byte
}

func newFastTokenizer(in []byte) *fastTokenizer { return &fastTokenizer{in: in} }

// Failed reports whether the tokenizer met something it leaves to html.Tokenizer.
func (z *fastTokenizer) Failed() bool { return z.failed }

func (z *fastTokenizer) Err() error {
	if z.tt == html.ErrorToken {
		return io.EOF
	}
	return nil
}

func (z *fastTokenizer) Raw() []byte                     { return z.in[z.start:z.end] }
func (z *fastTokenizer) Text() []byte                    { return z.data }
func (z *fastTokenizer) TagName() ([]byte, bool)         { return nil, false }
func (z *fastTokenizer) AllowCDATA(b bool)               { z.allowCDATA = b }
func (z *fastTokenizer) NextIsNotRawText()               { z.rawTag = "" }
func (z *fastTokenizer) TagAttr() ([]byte, []byte, bool) { return nil, nil, false }

func (z *fastTokenizer) fail() html.TokenType {
	z.failed = true
	z.tt = html.ErrorToken
	return z.tt
}

// text makes in[a:b] the current text token's data.
func (z *fastTokenizer) text(a, b int, raw bool) html.TokenType {
	z.start, z.end = a, b
	z.tt = html.TextToken
	z.data = z.convert(z.in[a:b], raw)
	z.pos = b
	return z.tt
}

// convert returns s as Text returns it: carriage returns converted, and character
// references unescaped unless raw.
func (z *fastTokenizer) convert(s []byte, raw bool) []byte {
	if bytes.IndexByte(s, '\r') >= 0 {
		z.buf = append(z.buf[:0], s...)
		s = z.buf
		w := 0
		for i := 0; i < len(s); i++ {
			c := s[i]
			if c == '\r' {
				c = '\n'
				if i+1 < len(s) && s[i+1] == '\n' {
					i++
				}
			}
			s[w] = c
			w++
		}
		s = s[:w]
	}
	if !raw && bytes.IndexByte(s, '&') >= 0 {
		s = []byte(html.UnescapeString(string(s)))
	}
	return s
}

// rawTags are the elements whose content html.Tokenizer reads as raw text (a list:
// at most ten comparisons, most of them of lengths, beat a map lookup per tag).
var rawTags = []string{"iframe", "noembed", "noframes", "noscript", "plaintext", "script",
	"style", "textarea", "title", "xmp"}

func asciiLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func (z *fastTokenizer) Next() html.TokenType {
	if z.failed {
		return z.fail()
	}
	in := z.in
	if z.pos >= len(in) {
		z.tt = html.ErrorToken
		return z.tt
	}
	if tag := z.rawTag; tag != "" {
		z.rawTag = ""
		if tag == "plaintext" {
			return z.fail()
		}
		end := z.rawEnd(tag)
		if tag == "script" && bytes.Contains(in[z.pos:end], []byte("<!--")) {
			return z.fail()
		}
		if end > z.pos {
			return z.text(z.pos, end, tag != "textarea" && tag != "title")
		}
	}
	pos := z.pos
	for i := pos; ; {
		k := bytes.IndexByte(in[i:], '<')
		if k < 0 || i+k+1 >= len(in) {
			return z.text(pos, len(in), false)
		}
		k += i
		if c := in[k+1]; asciiLetter(c) || c == '/' || c == '!' || c == '?' {
			if k > pos {
				return z.text(pos, k, false)
			}
			break
		}
		i = k + 1
	}
	// a tag, a comment or a doctype at pos
	switch c := in[pos+1]; {
	case asciiLetter(c):
		end := tagEnd(in, pos)
		if end < 0 {
			return z.fail()
		}
		z.start, z.end, z.pos, z.tt = pos, end, end, html.StartTagToken
		j := pos + 1
		for j < end && !tagSpace(in[j]) && in[j] != '/' && in[j] != '>' {
			j++
		}
		if j-pos-1 <= len("plaintext") {
			var name [9]byte
			n := copy(name[:], in[pos+1:j])
			for i := range n {
				if 'A' <= name[i] && name[i] <= 'Z' {
					name[i] += 'a' - 'A'
				}
			}
			for _, t := range rawTags {
				if t == string(name[:n]) {
					z.rawTag = t
					break
				}
			}
		}
		return z.tt
	case c == '/':
		if pos+2 >= len(in) || !asciiLetter(in[pos+2]) {
			return z.fail()
		}
		end := tagEnd(in, pos)
		if end < 0 {
			return z.fail()
		}
		z.start, z.end, z.pos, z.tt = pos, end, end, html.EndTagToken
		return z.tt
	case c == '!':
		rest := in[pos:]
		if bytes.HasPrefix(rest, []byte("<!--")) {
			d := rest[4:]
			if len(d) > 0 && d[0] == '>' || bytes.HasPrefix(d, []byte("->")) {
				return z.fail()
			}
			e := bytes.Index(d, []byte("-->"))
			if e < 0 || bytes.Contains(d[:e+2], []byte("--!")) {
				return z.fail()
			}
			z.start, z.end, z.tt = pos, pos+4+e+3, html.CommentToken
			z.pos = z.end
			z.data = z.convert(d[:e], false)
			return z.tt
		}
		if len(rest) > 9 && bytes.EqualFold(rest[2:9], []byte("DOCTYPE")) {
			a := pos + 9
			for a < len(in) && tagSpace(in[a]) {
				a++
			}
			e := bytes.IndexByte(in[a:], '>')
			if e < 0 {
				return z.fail()
			}
			z.start, z.end, z.tt = pos, a+e+1, html.DoctypeToken
			z.pos = z.end
			z.data = z.convert(in[a:a+e], false)
			return z.tt
		}
		return z.fail() // CDATA or a bogus comment
	}
	return z.fail() // <?…>
}

// rawEnd returns the offset of the end tag that closes the raw text element tag
// ("</tag" followed by white space, / or >), or the end of the input.
func (z *fastTokenizer) rawEnd(tag string) int {
	in := z.in
	for i := z.pos; ; {
		k := bytes.Index(in[i:], []byte("</"))
		if k < 0 {
			return len(in)
		}
		k += i
		e := k + 2 + len(tag)
		if e < len(in) && bytes.EqualFold(in[k+2:e], []byte(tag)) {
			switch in[e] {
			case ' ', '\n', '\r', '\t', '\f', '/', '>':
				return k
			}
		}
		i = k + 2
	}
}

// tagEnd returns the offset just after the > that ends the tag at pos (the first >
// outside quotes), or -1.
func tagEnd(in []byte, pos int) int {
	var q byte
	for i := pos + 1; i < len(in); i++ {
		switch c := in[i]; {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '>':
			return i + 1
		}
	}
	return -1
}
