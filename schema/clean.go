package schema

import (
	"html"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// tagRe matches something that looks like an HTML tag or comment inside a text value: an
// opening, closing or self-closing tag with a letter name, or <!-- … -->.
var tagRe = regexp.MustCompile(`<!--.*?-->|</?[A-Za-z][A-Za-z0-9:-]*(?:\s[^<>]*)?/?>`)

// entityRe matches an HTML character reference (&amp; &#39; &#x2014;).
var entityRe = regexp.MustCompile(`&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});`)

// Clean returns a value as it should be stored: valid UTF-8 (bytes that are not UTF-8
// are repaired by textnorm.RepairUTF8), markup that leaked into the text removed (tags, comments,
// character references), control and format characters (zero-width spaces, soft
// hyphens, BOMs) and private-use characters (icon-font glyphs) dropped, and every run of
// white space, non-breaking spaces included, collapsed to one ASCII space and trimmed.
// It reports whether anything but white space was repaired, so callers can count it.
func Clean(s string) (clean string, repaired bool) {
	if !utf8.ValidString(s) {
		s = string(textnorm.RepairUTF8([]byte(s)))
		repaired = true
	}
	if strings.ContainsRune(s, '<') && tagRe.MatchString(s) {
		s = tagRe.ReplaceAllString(s, " ")
		repaired = true
	}
	if strings.ContainsRune(s, '&') && entityRe.MatchString(s) {
		s = html.UnescapeString(s)
		repaired = true
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r) || r == '\u00a0' || r == '\u2007' || r == '\u202f':
			space = true
			continue
		case r == '\u00ad' || r == '\ufeff' || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r) || unicode.IsControl(r) || r == utf8.RuneError:
			if r != '\u200d' { // keep the zero-width joiner: it is part of some scripts and emoji
				repaired = true
				continue
			}
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String(), repaired
}

// norm is the matching form of a value: folded (NFKC, case, accents) with punctuation
// turned into spaces, so that "DICKENS, Charles" and "dickens charles" compare equal.
func norm(s string) string {
	return strings.Join(textnorm.Tokens(s), " ")
}
