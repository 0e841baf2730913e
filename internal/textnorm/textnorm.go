// Package textnorm normalises text for matching: Unicode folding (NFKC, case, accents),
// word tokens, stop words, the literal normal form used by the literal index and the
// aligner, and byte k-gram shingles with a multiset Dice coefficient and MinHash.
//
// Every function is deterministic and safe for concurrent use.
package textnorm

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// foldPool holds transformers that decompose, drop combining marks and recompose.
var foldPool = sync.Pool{New: func() any {
	return transform.Chain(norm.NFKD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
}}

// special maps letters that NFKD does not decompose to their ASCII spelling.
var special = map[rune]string{
	'ß': "ss", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe", 'ø': "o", 'Ø': "o",
	'đ': "d", 'Đ': "d", 'ł': "l", 'Ł': "l", 'þ': "th", 'Þ': "th", 'ı': "i",
	'\u2019': "'", '\u2018': "'", '\u201c': "\"", '\u201d': "\"",
}

// Fold returns s in compatibility form, lower-cased, without accents or other combining
// marks, with ligatures and a few letters spelled out (ß → ss, æ → ae) and runs of white
// space collapsed to one space. "Ångström  Café" → "angstrom cafe".
func Fold(s string) string {
	if isPlainLowerASCII(s) {
		return collapseSpace(s)
	}
	if isASCII(s) { // NFKD, mark removal and NFC leave ASCII as it is
		return collapseSpace(strings.ToLower(s))
	}
	t := foldPool.Get().(transform.Transformer)
	out, _, err := transform.String(t, s)
	t.Reset()
	foldPool.Put(t)
	if err != nil {
		out = s // invalid UTF-8: fold rune by rune below
	}
	var b strings.Builder
	b.Grow(len(out))
	for _, r := range out {
		if r == utf8.RuneError {
			continue
		}
		if rep, ok := special[r]; ok {
			b.WriteString(rep)
			continue
		}
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return collapseSpace(b.String())
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func isPlainLowerASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || (c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// collapseSpace trims s and replaces each run of Unicode white space by one ASCII space.
func collapseSpace(s string) string {
	if !needsCollapse(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

func needsCollapse(s string) bool {
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return true // possible non-ASCII space: take the slow path
		}
		sp := c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
		if sp && (prevSpace || c != ' ') {
			return true
		}
		prevSpace = sp
	}
	return prevSpace && len(s) > 0
}

// Tokens splits the folded form of s into words: maximal runs of letters and digits.
// Apostrophes inside a word are dropped ("O'Brien" → "obrien"); every other character
// separates words.
func Tokens(s string) []string {
	if isASCII(s) {
		return asciiTokens(s)
	}
	f := Fold(s)
	var toks []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			toks = append(toks, cur.String())
			cur.Reset()
		}
	}
	for _, r := range f {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur.WriteRune(r)
		case r == '\'' && cur.Len() > 0:
			// elided inside a word
		default:
			flush()
		}
	}
	flush()
	return toks
}

// asciiTokens is Tokens of ASCII text, whose folded form is its lower case: a word
// without capitals or apostrophes is a substring of s, not a copy.
func asciiTokens(s string) []string {
	var toks []string
	for i := 0; i < len(s); {
		if !asciiAlnum(s[i]) {
			i++
			continue
		}
		j, plain := asciiWord(s, i)
		if plain {
			toks = append(toks, s[i:j])
		} else {
			var b strings.Builder
			b.Grow(lowerWordLen(s[i:j], plain))
			writeLowerWord(&b, s[i:j], plain)
			toks = append(toks, b.String())
		}
		i = j
	}
	return toks
}

func asciiAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Literal returns the normal form under which two literals are considered the same by
// exact lookup: folded, with bracketed and parenthesised parts removed ("Hamlet (French
// Edition)" → "hamlet"), punctuation dropped, and stop words removed unless that would
// leave nothing ("The The" stays "the the"). It returns "" for text without letters or
// digits.
func Literal(s string) string {
	st := StripBracketed(s)
	if isASCII(st) {
		if out, ok := asciiLiteral(st); ok {
			return out
		}
		if isASCII(s) { // the whole text was bracketed: keep it
			out, _ := asciiLiteral(s)
			return out
		}
		return literalOf(Tokens(s))
	}
	toks := Tokens(st)
	if len(toks) == 0 {
		toks = Tokens(s) // the whole text was bracketed: keep it
	}
	return literalOf(toks)
}

// literalOf joins the words of toks that are no stop words, or all of them when every
// one is; "" when there are none.
func literalOf(toks []string) string {
	if len(toks) == 0 {
		return ""
	}
	kept := toks[:0:0]
	for _, t := range toks {
		if !IsStopWord(t) {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		kept = toks
	}
	return strings.Join(kept, " ")
}

// asciiLiteral is literalOf(asciiTokens(s)) without the slice of words: the words are
// read twice in place (once to count the stop words, once to write), a word is lowered
// into a buffer on the stack only to be looked up, and the result is s itself when s is
// already in normal form (lower-case words without stop words, one space apart). ok is
// false when s has no words. Loading a KB and re-scoring approximate literals normalise
// every literal they read, so this path carries most of Literal's calls.
func asciiLiteral(s string) (out string, ok bool) {
	var words, stops, size int
	canonical := true // s equals its normal form if no stop word is dropped
	prevEnd := -1
	for i := 0; i < len(s); {
		if !asciiAlnum(s[i]) {
			i++
			continue
		}
		j, plain := asciiWord(s, i)
		if isASCIIStopWord(s[i:j], plain) {
			stops++
		}
		words++
		size += lowerWordLen(s[i:j], plain)
		if !plain || (prevEnd < 0 && i != 0) || (prevEnd >= 0 && (i != prevEnd+1 || s[prevEnd] != ' ')) {
			canonical = false
		}
		prevEnd = j
		i = j
	}
	if words == 0 {
		return "", false
	}
	keepAll := stops == words
	if canonical && prevEnd == len(s) && (keepAll || stops == 0) {
		return s, true
	}
	var b strings.Builder
	b.Grow(size + words - 1)
	for i := 0; i < len(s); {
		if !asciiAlnum(s[i]) {
			i++
			continue
		}
		j, plain := asciiWord(s, i)
		if keepAll || !isASCIIStopWord(s[i:j], plain) {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			writeLowerWord(&b, s[i:j], plain)
		}
		i = j
	}
	return b.String(), true
}

// asciiWord returns the end of the word of ASCII text s starting at the letter or digit
// s[i] (letters, digits and apostrophes, as asciiTokens reads it), and whether the word
// is already lower-case without apostrophes.
func asciiWord(s string, i int) (j int, plain bool) {
	plain = true
	for j = i; j < len(s) && (asciiAlnum(s[j]) || s[j] == '\''); j++ {
		if s[j] == '\'' || (s[j] >= 'A' && s[j] <= 'Z') {
			plain = false
		}
	}
	return j, plain
}

// lowerWordLen is the length of ASCII word w lowered and without apostrophes.
func lowerWordLen(w string, plain bool) int {
	if plain {
		return len(w)
	}
	return len(w) - strings.Count(w, "'")
}

// writeLowerWord writes ASCII word w lowered and without apostrophes.
func writeLowerWord(b *strings.Builder, w string, plain bool) {
	if plain {
		b.WriteString(w)
		return
	}
	for k := 0; k < len(w); k++ {
		switch c := w[k]; {
		case c == '\'':
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		default:
			b.WriteByte(c)
		}
	}
}

// maxStopWordLen bounds the English stop words' length (TestStopWordLength); a longer
// word is none.
const maxStopWordLen = 16

// isASCIIStopWord reports whether ASCII word w, lowered and without apostrophes, is an
// English stop word, without allocating.
func isASCIIStopWord(w string, plain bool) bool {
	if plain {
		return englishStop[w]
	}
	var buf [maxStopWordLen]byte
	n := 0
	for k := 0; k < len(w); k++ {
		c := w[k]
		if c == '\'' {
			continue
		}
		if n == len(buf) {
			return false
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[n] = c
		n++
	}
	return englishStop[string(buf[:n])]
}

// StripBracketed removes every (…), […] and {…} group from s, nested or not, and trims
// the result. An unbalanced opening bracket removes nothing after it is kept as text.
func StripBracketed(s string) string {
	if !strings.ContainsAny(s, "([{") {
		return strings.TrimSpace(s)
	}
	var b strings.Builder
	depth := 0
	start := -1 // byte offset of the outermost unmatched opening bracket
	mark := 0
	for i, r := range s {
		switch r {
		case '(', '[', '{':
			if depth == 0 {
				b.WriteString(s[mark:i])
				start = i
			}
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
				if depth == 0 {
					mark = i + 1
					start = -1
				}
			}
		}
	}
	if depth > 0 && start >= 0 {
		b.WriteString(s[start:]) // unbalanced: keep the rest verbatim
	} else {
		b.WriteString(s[mark:])
	}
	return strings.TrimSpace(collapseSpace(b.String()))
}
