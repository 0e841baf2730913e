package textnorm

import (
	"math"
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

// TestASCIITokens checks the ASCII path of Tokens against the general one.
func TestASCIITokens(t *testing.T) {
	general := func(s string) []string {
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
	for _, s := range []string{"", " ", "O'Brien's  BOOK-12, vol.3", "'quoted' words''", "a''b", "x\t\ny\rZ",
		"rock'n'roll", "'", "123abc ABC123", "e-mail: x@y.org", "Tab\vFeed\fEnd"} {
		if got, want := Tokens(s), general(s); !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("Tokens(%q) = %q, want %q", s, got, want)
		}
	}
}
