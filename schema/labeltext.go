package schema

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// Labels as pages print them carry more than the name of a column: sort arrows
// ("Title ↓"), icons ("🔍"), the column's storage type ("title int(11)"), the name
// twice (a visually hidden copy for screen readers beside the visible one: "title
// Title"), a trailing colon. CleanLabel keeps the name.

// typeNote matches a storage type glued to its size: "int(11)", "varchar(255)",
// "decimal(10,2)". Beside other words it annotates a name rather than naming.
var typeNote = regexp.MustCompile(`^[A-Za-z_]+\(\s*\d+(?:\s*,\s*\d+)?\s*\)$`)

// CleanLabel returns the name a label text gives, or "" when it gives none: markup
// and control characters removed (Clean), symbols (arrows, icons, emoji) dropped,
// storage-type notes dropped when other words remain, a repeated name said once,
// empty brackets and the punctuation left at the ends trimmed. A label without a
// letter or a digit is no label.
func CleanLabel(text string) string {
	t, _ := Clean(text)
	t = strings.Map(func(r rune) rune {
		if unicode.In(r, unicode.Sm, unicode.So, unicode.Sk) {
			return ' '
		}
		return r
	}, t)
	words := strings.Fields(t)
	if len(words) > 1 {
		kept := slices.DeleteFunc(slices.Clone(words), func(w string) bool { return typeNote.MatchString(w) })
		if len(kept) > 0 {
			words = kept
		}
	}
	words = onceOnly(words)
	t = strings.Join(words, " ")
	for _, e := range []string{"()", "[]", "{}"} {
		t = strings.ReplaceAll(t, e, "")
	}
	t = strings.Trim(strings.Join(strings.Fields(t), " "), " :=：,;|/-–—·•*")
	if strings.IndexFunc(t, isWordRune) < 0 {
		return ""
	}
	return t
}

// onceOnly returns a name said twice in a row ("title Title") once, keeping the
// spelling with more capitals (the visible one).
func onceOnly(words []string) []string {
	n := len(words)
	if n < 2 || n%2 != 0 {
		return words
	}
	a, b := words[:n/2], words[n/2:]
	if textnorm.Fold(strings.Join(a, " ")) != textnorm.Fold(strings.Join(b, " ")) {
		return words
	}
	upper := func(ws []string) int {
		k := 0
		for _, w := range ws {
			for _, r := range w {
				if unicode.IsUpper(r) {
					k++
				}
			}
		}
		return k
	}
	if upper(b) > upper(a) {
		return b
	}
	return a
}
