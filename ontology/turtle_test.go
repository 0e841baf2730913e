package ontology

import (
	"slices"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/graph"
)

// parseTurtle parses a Turtle text and returns its triples as sorted canonical lines
// and its errors as "line:col: message".
func parseTurtle(t *testing.T, text string) (triples []string, errs []string) {
	t.Helper()
	p := newTurtleParser(strings.NewReader(text), "t.ttl", func(l string) string {
		if l[0] == 0 {
			return "g" + l[1:]
		}
		return l
	})
	p.emit = func(ts []graph.Triple) error {
		for _, tr := range ts {
			if err := tr.Validate(); err != nil {
				t.Errorf("invalid triple %v: %v", tr, err)
			}
			triples = append(triples, tr.String())
		}
		return nil
	}
	p.bad = func(e *graph.ParseError) error {
		errs = append(errs, strings.TrimPrefix(e.Error(), "t.ttl:"))
		return nil
	}
	if err := p.parse(); err != nil {
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
				"<http://ex/s> <" + graph.RDFType + "> <http://ex/C> .", "<http://ex/s> <" + graph.RDFType + "> <http://ex/D> ."}},
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
			[]string{`_:g1 <` + graph.RDF + `reifies> <<( <http://ex/s> <http://ex/p> <http://ex/o> )>> .`,
				`_:g1 <http://ex/since> "1977" .`}},
		{"triple term and annotation", pfx + "ex:r ex:about <<( ex:s ex:p \"v\" )>> .\nex:s ex:p ex:o {| ex:c 1 |} .\n",
			[]string{`<http://ex/r> <http://ex/about> <<( <http://ex/s> <http://ex/p> "v" )>> .`,
				`<http://ex/s> <http://ex/p> <http://ex/o> .`,
				`_:g1 <` + graph.RDF + `reifies> <<( <http://ex/s> <http://ex/p> <http://ex/o> )>> .`,
				`_:g1 <http://ex/c> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .`}},
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
		if got := resolveIRI(base, ref); got != want {
			t.Errorf("resolve(%q) = %q, want %q", ref, got, want)
		}
	}
}
