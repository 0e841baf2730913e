package graph

import "unicode/utf8"

// Character classes of the RDF grammars (N-Triples, Turtle), shared by the N-Triples
// reader here and the Turtle reader of package ontology.

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
