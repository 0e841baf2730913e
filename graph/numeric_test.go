package graph

import (
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/testutil"
)

// looksNumericByParse is looksNumeric's definition: strconv.ParseFloat accepts the
// trimmed text, or ParseDate does.
func looksNumericByParse(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return true
	}
	_, ok := ParseDate(s)
	return ok
}

// checkNumeric fails when looksNumeric disagrees with its definition on s, or when
// mayBeFloat refuses a text that ParseFloat accepts.
func checkNumeric(t *testing.T, where, s string) {
	t.Helper()
	if got, want := looksNumeric(s), looksNumericByParse(s); got != want {
		t.Errorf("%s: looksNumeric(%q) = %v, want %v (ParseFloat or ParseDate)", where, s, got, want)
	}
	if s = strings.TrimSpace(s); s == "" {
		return
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil && !mayBeFloat(s) {
		t.Errorf("%s: mayBeFloat(%q) = false, but ParseFloat accepts it", where, s)
	}
}

// TestLooksNumeric checks the allocation-free numeric test against ParseFloat and
// ParseDate on edge cases of ParseFloat's syntax, on every literal of the OAEI 2010
// Persons1 and Restaurants KBs, and on random texts over the characters that matter.
func TestLooksNumeric(t *testing.T) {
	for _, s := range []string{
		"", " ", "0", "-0", "+1", "-", "+", ".", "..", "1.", ".5", "5.", "1.2.3", "1e", "1e5",
		"1E+05", "1e-400", "1e400", "-1e400", "1.5e+3", "1e_5", "1_000", "_1", "1__0", "1_",
		"1_0.5", "inf", "-Inf", "+INF", "infinity", "+infinity", "infinityy", "infin", "nan", "NaN",
		"+nan", "-nan", "Ian", "Nancy", "Inf1", "0x10", "0x1p-2", "0X1P2", "0x_1p0", "0x",
		"0b101", "0o17", "0xg", "12-34", "555-1234", "1990", "1990-05-12", "-0044",
		"1990-05-12T10:00:00Z", " 42 ", "\t3.14\n", "١٢", "12 345", "1,5", "e5", "E", "5e+",
		"5e-", "+-1", "--1", "1+", "0.000", "00012", "9999999999999999999999",
	} {
		checkNumeric(t, "case", s)
	}

	n := 0
	for _, rel := range []string{"Persons1/person11.nt", "Persons1/person12.nt",
		"Restaurants/restaurant1.nt", "Restaurants/restaurant2.nt"} {
		path := filepath.Join(testutil.SharedData(t, "oaei2010"), rel)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		r := NewReader(f, path)
		for {
			tr, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				f.Close()
				t.Fatal(err)
			}
			if tr.O.Kind == KindLiteral {
				checkNumeric(t, path+":"+strconv.Itoa(r.Line()), tr.O.Value)
				n++
			}
		}
		f.Close()
	}
	if n < 10000 {
		t.Errorf("read %d literals from the OAEI files, want at least 10,000", n)
	}

	rng := rand.New(rand.NewPCG(19, 2026))
	const alphabet = "0123456789012345+-._eEpPxXinfatyINFATY :T"
	buf := make([]byte, 0, 12)
	for range 200000 {
		buf = buf[:0]
		for range 1 + rng.IntN(10) {
			buf = append(buf, alphabet[rng.IntN(len(alphabet))])
		}
		checkNumeric(t, "random", string(buf))
	}
}

// TestLooksNumericAllocs checks that a text that is not a number allocates nothing.
func TestLooksNumericAllocs(t *testing.T) {
	for _, s := range []string{"Smith", "Ian", "12 Main Street", "1990-05-12", "555-1234"} {
		if a := testing.AllocsPerRun(100, func() { looksNumeric(s) }); a != 0 {
			t.Errorf("looksNumeric(%q) allocates %.0f times, want 0", s, a)
		}
	}
}
