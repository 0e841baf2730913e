package textnorm

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Ångström  Café", "angstrom cafe"},
		{"  Dostoevsky\t", "dostoevsky"},
		{"Straße", "strasse"},
		{"ﬁnance", "finance"}, // NFKC ligature
		{"ÉMILE ZOLA", "emile zola"},
		{"plain", "plain"},
		{"", ""},
		{"a\u00a0b", "a b"}, // no-break space
		{"Łódź", "lodz"},
	}
	for _, tc := range tests {
		if got := Fold(tc.in); got != tc.want {
			t.Errorf("Fold(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLiteral(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Hamlet (French Edition)", "hamlet"},
		{"hamlet", "hamlet"},
		{"The Brothers Karamazov", "brothers karamazov"},
		{"The The", "the the"},
		{"Art's Deli", "arts deli"},
		{"Dickens, Charles", "dickens charles"},
		{"(1984)", "1984"},
		{"Harry Potter [Book 1] {x}", "harry potter"},
		{"unbalanced (paren", "unbalanced paren"},
		{"---", ""},
		{"Les Misérables", "les miserables"},
	}
	for _, tc := range tests {
		if got := Literal(tc.in); got != tc.want {
			t.Errorf("Literal(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTokens(t *testing.T) {
	got := Tokens("O'Brien, J.R.R. Tolkien — 2nd ed.")
	want := []string{"obrien", "j", "r", "r", "tolkien", "2nd", "ed"}
	if !slices.Equal(got, want) {
		t.Errorf("Tokens = %q, want %q", got, want)
	}
}

// The vectors of the PARIS notes (§7): multiset byte k-gram Dice.
func TestDicePARISVectors(t *testing.T) {
	tests := []struct {
		a, b   string
		k2, k4 float64
	}{
		{"art's deli", "arts deli", 0.8235, 0.4615},
		{"great expectations", "great expectation", 0.9697, 0.9655},
		{"charles dickens", "dickens, charles", 0.8276, 0.6400},
		{"elvis presley", "elvis aaron presley", 0.8000, 0.6154},
		{"hamlet (french edition)", "hamlet", 0.3704, 0.2609},
	}
	for _, tc := range tests {
		if got := Dice(tc.a, tc.b, 2); math.Abs(got-tc.k2) > 1e-4 {
			t.Errorf("Dice(%q, %q, 2) = %.4f, want %.4f", tc.a, tc.b, got, tc.k2)
		}
		if got := Dice(tc.a, tc.b, 4); math.Abs(got-tc.k4) > 1e-4 {
			t.Errorf("Dice(%q, %q, 4) = %.4f, want %.4f", tc.a, tc.b, got, tc.k4)
		}
		if Dice(tc.a, tc.b, 2) != Dice(tc.b, tc.a, 2) {
			t.Errorf("Dice(%q, %q) is not symmetric", tc.a, tc.b)
		}
	}
}

func TestStopWords(t *testing.T) {
	if !IsStopWord("the") || IsStopWord("hamlet") {
		t.Error("IsStopWord")
	}
	if sw := StopWords("en"); len(sw) < 100 || sw[0] != "the" {
		t.Errorf("StopWords(en): %d words, first %q", len(sw), sw[0])
	}
	if StopWords("xx") != nil {
		t.Error("unknown language must give nil")
	}
	if got := Languages(); !slices.Equal(got, []string{"de", "en", "es", "fr"}) {
		t.Errorf("Languages = %v", got)
	}
}

// generalTokens is Tokens by its definition, through Fold and Unicode classes, for
// checking the ASCII paths against.
func generalTokens(s string) []string {
	var toks []string
	var cur strings.Builder
	for _, r := range Fold(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur.WriteRune(r)
		case r == '\'' && cur.Len() > 0:
		default:
			if cur.Len() > 0 {
				toks = append(toks, cur.String())
				cur.Reset()
			}
		}
	}
	if cur.Len() > 0 {
		toks = append(toks, cur.String())
	}
	return toks
}

// TestASCIITokens checks the ASCII path of Tokens against the general one.
func TestASCIITokens(t *testing.T) {
	for _, s := range []string{"", " ", "O'Brien's  BOOK-12, vol.3", "'quoted' words''", "a''b", "x\t\ny\rZ",
		"rock'n'roll", "'", "123abc ABC123", "e-mail: x@y.org", "Tab\vFeed\fEnd"} {
		if got, want := Tokens(s), generalTokens(s); !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("Tokens(%q) = %q, want %q", s, got, want)
		}
	}
}

// literalByDefinition is Literal as its comment defines it, through the general
// tokenizer: the words of the text without bracketed parts (of the whole text when
// nothing else is left), without stop words unless every word is one, one space apart.
func literalByDefinition(s string) string {
	toks := generalTokens(StripBracketed(s))
	if len(toks) == 0 {
		toks = generalTokens(s)
	}
	var kept []string
	for _, w := range toks {
		if !englishStop[w] {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 {
		kept = toks
	}
	return strings.Join(kept, " ")
}

// literalCases are texts of the kinds a KB and a result page hold: names in every case,
// titles with articles and brackets, dates, numbers, codes, apostrophes, stray spaces
// and punctuation, all-stop-word titles, and some non-ASCII text.
var literalCases = []string{
	"", " ", "---", "hamlet", "Hamlet", "john smith", "john  smith", " john smith", "john smith ",
	"John Smith", "the wall", "The Wall", "the the", "The The", "a", "A", "of the",
	"O'Brien", "o'brien", "'twas", "rock'n'roll", "THE'S", "it's", "It's", "don't stop",
	"Hamlet (French Edition)", "(1984)", "(The)", "[the]", "x (y", "unbalanced (paren",
	"1984-05-03", "42", "3.14", "+33 1 23 45 67 89", "75001", "e-mail: x@y.org",
	"Dickens, Charles", "Les Misérables", "Ångström (Café)", "naïve the", "über",
	"word\tword", "a\nb", "x\u00a0y", "ALL CAPS TITLE", "mIxEd CaSe", "the 2nd edition",
	"Wasn't it", "AN", "THE", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	"Th'e", "T'H'E", "'the'", "the'", "a'a'a'a'a'a'a'a'a'a'a'a'a'a'a'a'a'a'a",
}

// TestLiteralByDefinition checks Literal's fast paths against the definition on the
// cases above, every pair of them joined, and random texts over the characters that
// matter (letters of both cases, digits, apostrophes, brackets, spaces, punctuation,
// stop words).
func TestLiteralByDefinition(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if got, want := Literal(s), literalByDefinition(s); got != want {
			t.Errorf("Literal(%q) = %q, want %q", s, got, want)
		}
	}
	for _, a := range literalCases {
		check(a)
		for _, b := range literalCases {
			check(a + " " + b)
			check(a + b)
		}
	}
	pieces := []string{"the", "The", "THE", "of", "a", "An", "x", "Bob", "smith", "42", "'", "''",
		" ", "  ", "\t", "(", ")", "[", "]", "{", "}", ",", ".", "-", "é", "É", "ß", "wasn't"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		check(b.String())
	}
}

// FuzzLiteral checks Literal against its definition on any text.
func FuzzLiteral(f *testing.F) {
	for _, s := range literalCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Literal(s), literalByDefinition(s); got != want {
			t.Errorf("Literal(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestStopWordLength checks that no English stop word is longer than the buffer the
// ASCII path lowers words into.
func TestStopWordLength(t *testing.T) {
	for w := range englishStop {
		if len(w) > maxStopWordLen {
			t.Errorf("stop word %q is longer than maxStopWordLen (%d)", w, maxStopWordLen)
		}
	}
}

// TestLiteralAllocations checks that a literal already in normal form is returned as
// it is and that any other ASCII literal without brackets costs one allocation.
func TestLiteralAllocations(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want float64
	}{{"john smith", 0}, {"John Smith", 1}, {"The Brothers Karamazov", 1}} {
		if got := testing.AllocsPerRun(100, func() { _ = Literal(tc.s) }); got != tc.want {
			t.Errorf("Literal(%q): %v allocations, want %v", tc.s, got, tc.want)
		}
	}
}

// BenchmarkLiteral normalises a mix of KB literals (names, titles, dates, numbers),
// ASCII and not.
func BenchmarkLiteral(b *testing.B) {
	for _, bc := range []struct {
		name  string
		texts []string
	}{
		{"ascii", []string{"John Smith", "the brothers karamazov", "Hamlet (French Edition)", "1984-05-03",
			"42", "O'Brien", "Dickens, Charles", "Paris", "new york city", "The Lord of the Rings"}},
		{"unicode", []string{"Les Misérables", "Ångström", "Łódź (city)", "Straße der Pariser Kommune"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				_ = Literal(bc.texts[i%len(bc.texts)])
			}
		})
	}
}
