package graph

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/testutil"
)

func TestParseDate(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" = not a date
	}{
		{"1838", "1838-##-##"},
		{"1838-05", "1838-05-##"},
		{"1838-05-12", "1838-05-12"},
		{"1838-##-##", "1838-##-##"},
		{"18##-##-##", "18##-##-##"},
		{"06##-##-##", "06##-##-##"},
		{"969-##-##", "0969-##-##"},
		{"430-08-28", "0430-08-28"},
		{"999#-##-##", "999#-##-##"},
		{"-0044-03-15", "-0044-03-15"},
		{"+1838", "1838-##-##"},
		{" 1838-05 ", "1838-05-##"},
		{"1838-05-12T10:00:00Z", "1838-05-12"},
		{"1838-05-12Z", "1838-05-12"},
		{"1970Z", "1970-##-##"},
		{"1838-05-12-05:00", "1838-05-12"},
		{"1838-05-05:00", "1838-05-##"},
		{"1838+01:00", "1838-##-##"},
		{"19690505", ""},
		{"1942.0", ""},
		{"1838-13-01", ""},
		{"1838-05-32", ""},
		{"1838-00", ""},
		{"18#8-##-##", ""},
		{"1838-#5", ""},
		{"1838-5", ""},
		{"1838-123", ""},
		{"1838-05-12x", ""},
		{"12 km", ""},
		{"12-05", ""},
		{"12345", ""},
		{"40", ""},
		{"hello", ""},
		{"", ""},
	}
	for _, tc := range tests {
		d, ok := ParseDate(tc.in)
		got := ""
		if ok {
			got = d.String()
		}
		if got != tc.want {
			t.Errorf("ParseDate(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseQueryDate(t *testing.T) {
	for in, want := range map[string]string{
		"1838": "1838-##-##", "969": "0969-##-##", "12 May 1838": "1838-05-12", "May 12, 1838": "1838-05-12",
		"02 Jan, 1880": "1880-01-02", "May 1838": "1838-05-##", "1st June 2001": "2001-06-01",
		"12": "", "Hamlet": "", "12 Hamlet 1838": "", "May": "", "31 February 1900": "1900-02-31", "40 May 1900": "",
	} {
		d, ok := ParseQueryDate(in)
		got := ""
		if ok {
			got = d.String()
		}
		if got != want {
			t.Errorf("ParseQueryDate(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDateInclusion(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"1838", "1838-05-12", true},
		{"1838-##-##", "1838-05-12", true},
		{"18##-##-##", "1838-05-12", true},
		{"1838-05-12", "1838", true}, // either direction
		{"1838-05-##", "1838-05-12", true},
		{"06##-##-##", "0612-03-01", true},
		{"969-##-##", "0969-05-01", true},
		{"1838-06-##", "1838-05-12", false},
		{"1839", "1838-05-12", false},
		{"1838-05-12", "1838-05-13", false},
		{"-1838", "1838", false},
	}
	for _, tc := range tests {
		a, ok1 := ParseDate(tc.a)
		b, ok2 := ParseDate(tc.b)
		if !ok1 || !ok2 {
			t.Fatalf("%q or %q does not parse", tc.a, tc.b)
		}
		if got := a.Overlaps(b); got != tc.want {
			t.Errorf("%s ~ %s = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestDateOf(t *testing.T) {
	for _, tc := range []struct {
		t    Term
		want string
	}{
		{NewTyped("969-##-##", XSD+"date"), "0969-##-##"},
		{NewTyped("1838", XSD+"gYear"), "1838-##-##"},
		{NewTyped("1838-05-12T10:00:00", XSD+"dateTime"), "1838-05-12"},
		{NewLiteral("1838-05-12"), ""}, // a plain string is not a date literal
		{NewTyped("1838", XSD+"integer"), ""},
		{NewTyped("soon", XSD+"date"), ""},
		{NewIRI("http://a/1838"), ""},
	} {
		d, ok := DateOf(tc.t)
		got := ""
		if ok {
			got = d.String()
		}
		if got != tc.want {
			t.Errorf("DateOf(%s) = %q, want %q", tc.t, got, tc.want)
		}
	}
}

// TestYAGODates parses every date of the shared YAGO15K extract that is written in
// YAGO's own form (the YYYY.MMDD floats are a preprocessing artefact that the TSV loader
// converts): all parse, String gives back the value with its year padded to four
// digits, and a date with wildcards includes the dates it stands for.
func TestYAGODates(t *testing.T) {
	path := filepath.Join(testutil.SharedData(t, "yago15k-literals"), "YAGO15K_NumericalTriples_filtered.txt")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, short, wild := 0, 0, 0
	for line := 1; sc.Scan(); line++ {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 3 || !strings.HasSuffix(fs[1], "Date>") || !strings.Contains(fs[2], "-") {
			continue
		}
		v := fs[2]
		d, ok := ParseDate(v)
		if !ok {
			t.Errorf("%s:%d: ParseDate(%q) failed", path, line, v)
			continue
		}
		n++
		want := v
		if i := strings.IndexByte(v, '-'); i == 3 {
			want = "0" + v
			short++
		}
		if d.String() != want {
			t.Errorf("%s:%d: ParseDate(%q) = %s", path, line, v, d)
		}
		if strings.Contains(v, "#") {
			wild++
			concrete := strings.NewReplacer("#", "1").Replace(want)
			c, ok := ParseDate(concrete)
			if !ok || !d.Includes(c) || c.Includes(d) || !c.Overlaps(d) {
				t.Errorf("%s:%d: %s should strictly include %s", path, line, d, concrete)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 9_000 || short < 15 || wild < 1_800 {
		t.Errorf("parsed %d dates (%d with 3-digit years, %d with wildcards); the extract has about 9,800, 19 and 1,860", n, short, wild)
	}
	t.Logf("%d YAGO dates, %d with 3-digit years, %d with wildcards", n, short, wild)
}
