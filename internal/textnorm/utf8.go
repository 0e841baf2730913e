package textnorm

import (
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// RepairUTF8 returns b with every byte that is not part of valid UTF-8 read as
// Windows-1252 (the usual encoding of undeclared Western pages, a superset of the
// printable ISO-8859-1): valid UTF-8 around it is kept, so a stray "\x96" in an
// otherwise UTF-8 text becomes "–" and "Mis\xe9rables" becomes "Misérables". It
// returns b itself when b is valid.
func RepairUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			if d, err := charmap.Windows1252.NewDecoder().Bytes(b[:1]); err == nil && utf8.Valid(d) {
				out = append(out, d...)
			} else {
				out = utf8.AppendRune(out, utf8.RuneError)
			}
			b = b[1:]
			continue
		}
		out = append(out, b[:size]...)
		b = b[size:]
	}
	return out
}
