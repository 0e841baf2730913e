package graph

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/testutil"
)

type manifestTest struct {
	name, kind, action, result string
}

// readManifest extracts the tests of a W3C rdf-tests manifest: each block
// `<#name> rdf:type rdft:Kind ; … mf:action <file> ; [mf:result <file>]`. Only tests
// listed in mf:entries are returned.
func readManifest(t *testing.T, path string) []manifestTest {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	entries := map[string]bool{}
	if i := strings.Index(text, "mf:entries"); i >= 0 {
		end := strings.Index(text[i:], ")")
		for _, m := range regexp.MustCompile(`(?m)^\s*(?:<#|:)([\w.-]+)>?\s*$`).FindAllStringSubmatch(text[i:i+end], -1) {
			entries[m[1]] = true
		}
	}
	block := regexp.MustCompile(`(?s)(?:<#|\n:)([\w.-]+)>?\s+rdf:type\s+rdft:(\w+)\s*;(.*?)\n\s*\.`)
	action := regexp.MustCompile(`mf:action\s+<([^>]+)>`)
	result := regexp.MustCompile(`mf:result\s+<([^>]+)>`)
	var tests []manifestTest
	for _, m := range block.FindAllStringSubmatch(text, -1) {
		if !entries[m[1]] {
			continue
		}
		mt := manifestTest{name: m[1], kind: m[2]}
		if a := action.FindStringSubmatch(m[3]); a != nil {
			mt.action = a[1]
		}
		if r := result.FindStringSubmatch(m[3]); r != nil {
			mt.result = r[1]
		}
		tests = append(tests, mt)
	}
	if len(tests) != len(entries) {
		t.Fatalf("%s: found %d test blocks for %d entries", path, len(tests), len(entries))
	}
	return tests
}

func readAll(r *Reader) ([]Triple, error) {
	var ts []Triple
	for {
		tr, err := r.Read()
		if err == io.EOF {
			return ts, nil
		}
		if err != nil {
			return ts, err
		}
		ts = append(ts, tr)
	}
}

// countStatements counts the lines of an N-Triples file that hold a statement (the
// expected number of triples of a positive test, which has one triple per line).
func countStatements(data []byte) int {
	n := 0
	for _, l := range bytes.FieldsFunc(data, func(r rune) bool { return r == '\n' || r == '\r' }) {
		l = bytes.TrimLeft(l, " \t")
		if len(l) > 0 && l[0] != '#' {
			n++
		}
	}
	return n
}

func TestW3CNTriplesSyntax(t *testing.T) {
	dir := testutil.SharedData(t, "w3c-ntriples/rdf11")
	tests := readManifest(t, filepath.Join(dir, "manifest.ttl"))
	var pos, neg int
	for _, mt := range tests {
		t.Run(mt.name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, mt.action))
			if err != nil {
				t.Fatal(err)
			}
			got, err := readAll(NewReader(bytes.NewReader(data), mt.action))
			switch mt.kind {
			case "TestNTriplesPositiveSyntax":
				pos++
				if err != nil {
					t.Fatalf("positive test rejected: %v", err)
				}
				if want := countStatements(data); len(got) != want {
					t.Fatalf("got %d triples, want %d", len(got), want)
				}
				// Round trip: the canonical form parses to the same triples.
				var buf bytes.Buffer
				w := NewWriter(&buf)
				for _, tr := range got {
					if err := w.Write(tr); err != nil {
						t.Fatal(err)
					}
				}
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
				again, err := readAll(NewReader(&buf, "roundtrip"))
				if err != nil {
					t.Fatalf("canonical output does not parse: %v\n%s", err, buf.String())
				}
				for i := range got {
					if got[i] != again[i] {
						t.Errorf("round trip changed triple %d: %v -> %v", i, got[i], again[i])
					}
				}
			case "TestNTriplesNegativeSyntax":
				neg++
				if err == nil {
					t.Fatalf("negative test accepted: %q", data)
				}
				if _, ok := errors.AsType[*ParseError](err); !ok {
					t.Fatalf("error is not a *ParseError: %T %v", err, err)
				}
			default:
				t.Fatalf("unknown test kind %s", mt.kind)
			}
		})
	}
	if pos != 41 || neg != 29 {
		t.Errorf("ran %d positive and %d negative tests, want 41 and 29", pos, neg)
	}
}

func TestW3CCanonicalNTriples(t *testing.T) {
	dir := testutil.SharedData(t, "w3c-ntriples/rdf12-c14n")
	tests := readManifest(t, filepath.Join(dir, "manifest.ttl"))
	if len(tests) != 41 {
		t.Errorf("%d c14n tests, want 41", len(tests))
	}
	for _, mt := range tests {
		t.Run(mt.name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join(dir, mt.action))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, mt.result))
			if err != nil {
				t.Fatal(err)
			}
			got, err := readAll(NewReader(bytes.NewReader(in), mt.action))
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			w := NewWriter(&buf)
			for _, tr := range got {
				if err := w.Write(tr); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("canonical form differs\ngot:  %q\nwant: %q", buf.String(), want)
			}
		})
	}
}

func TestReaderContinuesAfterBadLines(t *testing.T) {
	in := "<http://a/s> <http://a/p> <http://a/o> .\n" +
		"<http://a/s> <http://a/p> <http://a/o\n" + // unterminated IRI (knakk/rdf panics here)
		"# comment\n" +
		"<http://a/s> <http://a/p> \"x\"@en-GB .\n" +
		"<http://a/s> <http://a/p> \"unterminated .\n" +
		"<http://a/s> <http://a/p> \"ok\" . <http://a/s> <http://a/p> \"two\" .\n" +
		"<http://a/s> <http://a/p> <http://a/last> ." // no final newline
	r := NewReader(strings.NewReader(in), "bad.nt")
	var good []Triple
	var bad []*ParseError
	for {
		tr, err := r.Read()
		if err == io.EOF {
			break
		}
		if pe, ok := errors.AsType[*ParseError](err); ok {
			bad = append(bad, pe)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		good = append(good, tr)
	}
	if len(good) != 3 {
		t.Errorf("good triples: %d, want 3", len(good))
	}
	wantLines := []int{2, 5, 6}
	if len(bad) != len(wantLines) {
		t.Fatalf("bad lines: %v", bad)
	}
	for i, pe := range bad {
		if pe.Line != wantLines[i] || pe.File != "bad.nt" {
			t.Errorf("error %d at %s:%d, want line %d", i, pe.File, pe.Line, wantLines[i])
		}
		if !strings.HasPrefix(pe.Error(), "bad.nt:") {
			t.Errorf("message %q does not start with the file name", pe.Error())
		}
	}
	if good[1].O.Lang != "en-gb" {
		t.Errorf("language tag not lower-cased: %q", good[1].O.Lang)
	}
}

func TestTermValidate(t *testing.T) {
	bad := []Triple{
		{S: NewLiteral("x"), P: NewIRI("http://a/p"), O: NewIRI("http://a/o")},
		{S: NewIRI("http://a/s"), P: NewBlank("b"), O: NewIRI("http://a/o")},
		{S: NewIRI("relative"), P: NewIRI("http://a/p"), O: NewIRI("http://a/o")},
		{S: NewIRI("http://a/s p"), P: NewIRI("http://a/p"), O: NewIRI("http://a/o")},
		{S: NewIRI("http://a/s"), P: NewIRI("http://a/p"), O: NewBlank("a:b")},
		{S: NewIRI("http://a/s"), P: NewIRI("http://a/p"), O: NewLangString("x", "en us")},
		{},
	}
	for _, tr := range bad {
		if err := tr.Validate(); err == nil {
			t.Errorf("Validate(%v) = nil, want an error", tr)
		}
		if err := NewWriter(io.Discard).Write(tr); err == nil {
			t.Errorf("Writer accepted %v", tr)
		}
	}
	tt := NewTripleTerm(Triple{S: NewIRI("http://a/s"), P: NewIRI("http://a/p"), O: NewTyped("1", XSD+"integer")})
	good := Triple{S: NewIRI("http://a/s"), P: NewIRI("http://a/p"), O: tt}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	back, err := tt.Triple()
	if err != nil || back.O.Datatype != XSD+"integer" {
		t.Errorf("triple term round trip: %v %v", back, err)
	}
}

func TestParseTerm(t *testing.T) {
	tests := []struct {
		in   string
		want Term
	}{
		{`<http://a/b>`, NewIRI("http://a/b")},
		{`_:x1`, NewBlank("x1")},
		{`"a\"b"`, NewLiteral(`a"b`)},
		{`"1"^^<http://www.w3.org/2001/XMLSchema#string>`, NewLiteral("1")},
		{`"chat"@FR`, NewLangString("chat", "fr")},
		{`"caf\u00E9"`, NewLiteral("café")},
	}
	for _, tc := range tests {
		got, err := ParseTerm(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseTerm(%s) = %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
		if s := got.String(); s != strings.Replace(strings.Replace(tc.in, `^^<http://www.w3.org/2001/XMLSchema#string>`, "", 1), "FR", "fr", 1) && !strings.Contains(tc.in, `\u`) {
			t.Errorf("String() = %s, want %s", s, tc.in)
		}
	}
	for _, bad := range []string{`<rel>`, `"x`, `1`, `"x" junk`, `_:`, `<<( <http://a> <http://b> )>>`} {
		if _, err := ParseTerm(bad); err == nil {
			t.Errorf("ParseTerm(%s) accepted", bad)
		}
	}
}

func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		`<http://a/s> <http://a/p> "x"@en .`,
		`_:a <http://a/p> <<( <http://a/s> <http://a/p> "o" )>> .`,
		`<http://a/s> <http://a/p> "\u00e9\U0001F600" .`,
		`<http://a/s> <http://a/p> <http://a/o`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		tr, ok, err := ParseLine(line)
		if err != nil || !ok {
			return
		}
		// Whatever parses must write as valid N-Triples that parses back to itself.
		s := tr.String()
		again, ok, err := ParseLine([]byte(s))
		if err != nil || !ok {
			t.Fatalf("canonical %q does not parse: %v", s, err)
		}
		if again != tr {
			t.Fatalf("round trip %q: %v != %v", s, again, tr)
		}
	})
}

// TestAppendLineKeys checks the loader's allocation-free path against ParseLine: on
// every line of the W3C positive tests and a few more, the keys are those of the parsed
// terms (with the blank node prefix), and bad lines give the same column.
func TestAppendLineKeys(t *testing.T) {
	dir := testutil.SharedData(t, "w3c-ntriples/rdf11")
	var lines []string
	for _, mt := range readManifest(t, filepath.Join(dir, "manifest.ttl")) {
		data, err := os.ReadFile(filepath.Join(dir, mt.action))
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(data), "\n")...)
	}
	lines = append(lines,
		`<http://a> <http://p> "x"^^<http://www.w3.org/2001/XMLSchema#string> .`,
		`_:b1 <http://p> "Été"@FR-ca .`,
		`<http://a> <http://p> "y"@en--RTL .`,
		`<http://a> <http://p> <<( _:x <http://q> "z" )>> .`,
		`<http://a> <http://p> "esc\u00e9\n" .`,
		`<http://a> <http://p> "bad`)
	rename := func(x Term) Term {
		switch x.Kind {
		case KindBlank:
			x.Value = "f1_" + x.Value
		case KindTriple:
			q, _ := x.Triple()
			return NewTripleTerm(q.WithBlankPrefix("f1_"))
		}
		return x
	}
	n := 0
	for _, l := range lines {
		tr, ok, err := ParseLine([]byte(l))
		keys, ends, kok, kerr := AppendLineKeys([]byte("prefix"), []byte(l), "f1_")
		if (err == nil) != (kerr == nil) || ok != kok {
			t.Errorf("%q: ParseLine %v %v, AppendLineKeys %v %v", l, ok, err, kok, kerr)
			continue
		}
		if err != nil {
			var se *syntaxError
			pe, _ := kerr.(*ParseError)
			if errors.As(err, &se) && (pe == nil || pe.Col != se.col+1) {
				t.Errorf("%q: column %d, AppendLineKeys %v", l, se.col+1, kerr)
			}
			continue
		}
		if !ok {
			continue
		}
		var want []byte
		want = append(want, "prefix"...)
		var wantEnds [3]int
		for i, x := range []Term{rename(tr.S), tr.P, rename(tr.O)} {
			want = AppendTermKey(want, x)
			wantEnds[i] = len(want)
		}
		if !bytes.Equal(keys, want) || ends != wantEnds {
			t.Errorf("%q: keys differ from those of ParseLine", l)
		}
		n++
	}
	if n < 40 {
		t.Errorf("compared only %d lines", n)
	}
}
