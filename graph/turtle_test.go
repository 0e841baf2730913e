package graph

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/testutil"
)

// parseTurtle parses a Turtle text and returns its triples as sorted canonical lines
// and its errors as "line:col: message".
func parseTurtle(t *testing.T, text string) (triples []string, errs []string) {
	t.Helper()
	emit := func(ts []Triple) error {
		for _, tr := range ts {
			if err := tr.Validate(); err != nil {
				t.Errorf("invalid triple %v: %v", tr, err)
			}
			triples = append(triples, tr.String())
		}
		return nil
	}
	bad := func(e *ParseError) error {
		errs = append(errs, strings.TrimPrefix(e.Error(), "t.ttl:"))
		return nil
	}
	if err := ReadTurtle(strings.NewReader(text), TurtleOptions{Name: "t.ttl"}, emit, bad); err != nil {
		t.Fatalf("parse: %v", err)
	}
	slices.Sort(triples)
	return triples, errs
}

func TestTurtle(t *testing.T) {
	const pfx = "@prefix ex: <http://ex/> .\n"
	tests := []struct {
		name, in string
		want     []string
	}{
		{"yago 4.5 line", "@prefix yago: <http://yago-knowledge.org/resource/> .\n@prefix schema: <http://schema.org/> .\nyago:Elvis\tschema:birthDate\t\"1935-01-08\"^^<http://www.w3.org/2001/XMLSchema#date>\t.\n",
			[]string{`<http://yago-knowledge.org/resource/Elvis> <http://schema.org/birthDate> "1935-01-08"^^<http://www.w3.org/2001/XMLSchema#date> .`}},
		{"a ; and , lists over lines", pfx + "ex:s a ex:C, ex:D ;\n  ex:p ex:o1 ,\n   ex:o2 ;\n  .\n",
			[]string{"<http://ex/s> <http://ex/p> <http://ex/o1> .", "<http://ex/s> <http://ex/p> <http://ex/o2> .",
				"<http://ex/s> <" + RDFType + "> <http://ex/C> .", "<http://ex/s> <" + RDFType + "> <http://ex/D> ."}},
		{"two statements on a line", pfx + "ex:a ex:p ex:b . ex:c ex:p ex:d.\n",
			[]string{"<http://ex/a> <http://ex/p> <http://ex/b> .", "<http://ex/c> <http://ex/p> <http://ex/d> ."}},
		{"sparql prefix and base", "PREFIX ex: <http://ex/>\nBASE <http://base/dir/>\n<a> ex:p <../b> .\n",
			[]string{"<http://base/dir/a> <http://ex/p> <http://base/b> ."}},
		{"@base relative names", "@base <http://yago-knowledge.org/resource/> .\n<Carlo_Azeglio_Ciampi>\t<hasGender>\t<male> .\n",
			[]string{"<http://yago-knowledge.org/resource/Carlo_Azeglio_Ciampi> <http://yago-knowledge.org/resource/hasGender> <http://yago-knowledge.org/resource/male> ."}},
		{"literals", pfx + `ex:s ex:p "a\tb\u00e9", 'single', """long
"quoted" text""", "x"@en-GB, 12, -1.5, 1e3, true, "7"^^ex:t .` + "\n",
			[]string{`<http://ex/s> <http://ex/p> "-1.5"^^<http://www.w3.org/2001/XMLSchema#decimal> .`,
				`<http://ex/s> <http://ex/p> "12"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
				`<http://ex/s> <http://ex/p> "1e3"^^<http://www.w3.org/2001/XMLSchema#double> .`,
				`<http://ex/s> <http://ex/p> "7"^^<http://ex/t> .`,
				`<http://ex/s> <http://ex/p> "a\tbé" .`,
				`<http://ex/s> <http://ex/p> "long\n\"quoted\" text" .`,
				`<http://ex/s> <http://ex/p> "single" .`,
				`<http://ex/s> <http://ex/p> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> .`,
				`<http://ex/s> <http://ex/p> "x"@en-gb .`}},
		{"blank nodes and collections", pfx + "[ ex:p ex:o ] ex:q ( ex:a 1 ) .\n_:x ex:r [] .\n",
			[]string{"<http://ex/g1> ...placeholder"}},
		{"local names with dots and escapes", pfx + "ex:a.b ex:p ex:c\\(d\\) .\nex:e ex:p ex:f.\n",
			[]string{"<http://ex/a.b> <http://ex/p> <http://ex/c(d)> .", "<http://ex/e> <http://ex/p> <http://ex/f> ."}},
		{"rdf-star reified subject", pfx + "<< ex:s ex:p ex:o >> ex:since \"1977\" .\n",
			[]string{`_:b-g1 <` + RDF + `reifies> <<( <http://ex/s> <http://ex/p> <http://ex/o> )>> .`,
				`_:b-g1 <http://ex/since> "1977" .`}},
		{"triple term and annotation", pfx + "ex:r ex:about <<( ex:s ex:p \"v\" )>> .\nex:s ex:p ex:o {| ex:c 1 |} .\n",
			[]string{`<http://ex/r> <http://ex/about> <<( <http://ex/s> <http://ex/p> "v" )>> .`,
				`<http://ex/s> <http://ex/p> <http://ex/o> .`,
				`_:b-g1 <` + RDF + `reifies> <<( <http://ex/s> <http://ex/p> <http://ex/o> )>> .`,
				`_:b-g1 <http://ex/c> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .`}},
		{"escaped quote in IRI becomes %22", "<http://y/William_\\u0022Mickey\\u0022> <http://y/p> <http://y/o> .\n",
			[]string{"<http://y/William_%22Mickey%22> <http://y/p> <http://y/o> ."}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, errs := parseTurtle(t, tc.in)
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			if tc.name == "blank nodes and collections" {
				// [ ex:p ex:o ] ex:q ( ex:a 1 ) . / _:x ex:r [] .
				if len(got) != 7 {
					t.Fatalf("got %d triples:\n%s", len(got), strings.Join(got, "\n"))
				}
				return
			}
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func TestTurtleErrors(t *testing.T) {
	tests := []struct {
		name, in string
		wantErrs []string
		kept     int // triples of the good statements
	}{
		{"undeclared prefix", "yago:Elvis <http://p> <http://o> .\n<http://a> <http://p> <http://b> .\n",
			[]string{`1:1: undeclared prefix "yago:"`}, 1},
		{"bad statement dropped whole", "@prefix ex: <http://ex/> .\nex:s ex:p ex:a, ex:b, \"unterminated .\nex:t ex:p ex:c .\n",
			[]string{"2:38: line break in a string"}, 1},
		{"missing dot", "<http://a> <http://p> <http://b>\n<http://c> <http://p> <http://d> .\n",
			[]string{`2:1: expected '.' to end the statement, found "<http://c> <http"`}, 0},
		{"literal subject", "\"x\" <http://p> <http://o> .\n<http://a> <http://p> <http://b> .\n",
			[]string{"1:1: a literal cannot be a subject"}, 1},
		{"bad language tag", "<http://a> <http://p> \"x\"@1 .\n",
			[]string{"1:26: invalid language tag @1"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, errs := parseTurtle(t, tc.in)
			for i := range errs {
				// keep line:col and the start of the message
				if i < len(tc.wantErrs) && !strings.HasPrefix(errs[i], tc.wantErrs[i]) {
					t.Errorf("error %d = %q, want prefix %q", i, errs[i], tc.wantErrs[i])
				}
			}
			if len(errs) != len(tc.wantErrs) {
				t.Errorf("errors %q, want %q", errs, tc.wantErrs)
			}
			if len(got) != tc.kept {
				t.Errorf("kept %d triples, want %d: %v", len(got), tc.kept, got)
			}
		})
	}
}

func TestResolveIRI(t *testing.T) {
	// RFC 3986 §5.4 examples.
	base := "http://a/b/c/d;p?q"
	tests := map[string]string{
		"g:h": "g:h", "g": "http://a/b/c/g", "./g": "http://a/b/c/g", "g/": "http://a/b/c/g/",
		"/g": "http://a/g", "//g": "http://g", "?y": "http://a/b/c/d;p?y", "g?y": "http://a/b/c/g?y",
		"#s": "http://a/b/c/d;p?q#s", "g#s": "http://a/b/c/g#s", ";x": "http://a/b/c/;x", "": "http://a/b/c/d;p?q",
		".": "http://a/b/c/", "./": "http://a/b/c/", "..": "http://a/b/", "../": "http://a/b/", "../g": "http://a/b/g",
		"../..": "http://a/", "../../g": "http://a/g", "../../../g": "http://a/g", "/./g": "http://a/g",
		"g.": "http://a/b/c/g.", ".g": "http://a/b/c/.g", "./../g": "http://a/b/g", "g;x=1/../y": "http://a/b/c/y",
	}
	for ref, want := range tests {
		if got := ResolveIRI(base, ref); got != want {
			t.Errorf("resolve(%q) = %q, want %q", ref, got, want)
		}
	}
}

// TestTurtleReadsNTriples checks that the two parsers share their lexical rules: every
// positive W3C N-Triples test (N-Triples is a subset of Turtle) gives the same triples
// through ReadTurtle, blank node labels aside.
func TestTurtleReadsNTriples(t *testing.T) {
	dir := testutil.SharedData(t, "w3c-ntriples/rdf11")
	n := 0
	for _, mt := range readManifest(t, filepath.Join(dir, "manifest.ttl")) {
		if mt.kind != "TestNTriplesPositiveSyntax" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, mt.action))
		if err != nil {
			t.Fatal(err)
		}
		want, err := readAll(NewReader(bytes.NewReader(data), mt.action))
		if err != nil {
			t.Fatal(err)
		}
		var got []Triple
		emit := func(ts []Triple) error { got = append(got, ts...); return nil }
		bad := func(e *ParseError) error { return e }
		if err := ReadTurtle(bytes.NewReader(data), TurtleOptions{Name: mt.action}, emit, bad); err != nil {
			t.Errorf("%s: Turtle rejects N-Triples: %v", mt.name, err)
			continue
		}
		unblank := func(x Term) Term {
			if x.Kind == KindBlank {
				x.Value = strings.TrimPrefix(x.Value, "b_")
			}
			return x
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d triples, N-Triples reader %d", mt.name, len(got), len(want))
			continue
		}
		for i := range got {
			g := Triple{S: unblank(got[i].S), P: got[i].P, O: unblank(got[i].O)}
			if g != want[i] {
				t.Errorf("%s: triple %d = %v, N-Triples reader %v", mt.name, i, g, want[i])
			}
		}
		n++
	}
	if n != 41 {
		t.Errorf("compared %d positive tests, want 41", n)
	}
}

func TestTurtleLongStringsAndPositions(t *testing.T) {
	const in = "@prefix ex: <http://ex/> .\n" +
		"ex:s ex:p \"\"\"one\n\\u00e9 \"two\"\nthree\"\"\"\"@en--RTL .\n" +
		"ex:s ex:q ex:o ;\n  ex:r <bad iri> .\n" +
		"ex:t ex:p 'ok' .\n"
	got, errs := parseTurtle(t, in)
	want := []string{
		`<http://ex/s> <http://ex/p> "one\né \"two\"\nthree\""@en--rtl .`,
		`<http://ex/t> <http://ex/p> "ok" .`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The IRI error is on line 6 (after the three lines of the long string), column 12 (the space).
	if len(errs) != 1 || !strings.HasPrefix(errs[0], "6:12: character ' ' is not allowed in an IRI") {
		t.Errorf("errors %q", errs)
	}
}

func TestTurtleCheck(t *testing.T) {
	in := "<http://a> <http://p> \"short\" , \"far too long\" .\n<http://b> <http://p> \"x\" .\n"
	var got []string
	var errs []string
	opts := TurtleOptions{Name: "c.ttl", Check: func(tr Triple) error {
		if len(tr.O.Value) > 5 {
			return errors.New("literal too long")
		}
		return nil
	}}
	emit := func(ts []Triple) error {
		for _, tr := range ts {
			got = append(got, tr.S.Value)
		}
		return nil
	}
	bad := func(e *ParseError) error { errs = append(errs, e.Error()); return nil }
	if err := ReadTurtle(strings.NewReader(in), opts, emit, bad); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"http://b"}) || len(errs) != 1 || !strings.Contains(errs[0], "c.ttl:1:") || !strings.Contains(errs[0], "literal too long") {
		t.Errorf("kept %v, errors %q; want the second statement only and one error on line 1", got, errs)
	}
}
