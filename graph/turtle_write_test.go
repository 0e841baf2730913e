package graph

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/rdftest"
)

// TestWriteTurtle writes triples with awkward IRIs, literals and blank nodes as Turtle
// and reads them back with ReadTurtle: the same triples; safe local names are
// abbreviated, others are not.
func TestWriteTurtle(t *testing.T) {
	y := "http://yago-knowledge.org/resource/"
	src := "https://data.example/src/s1/"
	var in []Triple
	for i, name := range []string{"Paris_(Texas)", "Paris", "a.b", "end.", "x/y", "Émile_Zola", "1984", "-x"} {
		s := NewIRI(y + name)
		in = append(in,
			Triple{S: s, P: NewIRI(RDFType), O: NewIRI("http://schema.org/Place")},
			Triple{S: s, P: NewIRI(RDFSLabel), O: NewLangString(name+" \"q\"\n", "en")},
			Triple{S: NewIRI(src + "rec/" + itoa(i)), P: NewIRI(src + "p/title"), O: NewLiteral(name)},
			Triple{S: NewIRI(src + "rec/" + itoa(i)), P: NewIRI(OWLSameAs), O: s},
			Triple{S: NewBlank("r" + itoa(i)), P: NewIRI(RDF + "subject"), O: s},
			Triple{S: NewBlank("r" + itoa(i)), P: NewIRI("https://trawl.invalid/vocab#confidence"), O: NewTyped("0.9", XSD+"decimal")},
		)
	}
	var b bytes.Buffer
	if err := WriteTurtle(&b, in, map[string]string{"trawl": "https://trawl.invalid/vocab#"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"@prefix yago: <" + y + "> .", "@prefix ns1: <" + src + "rec/> .", "yago:Paris a schema:Place", "<" + y + "Paris_(Texas)>", "trawl:confidence"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	var got []Triple
	err := ReadTurtle(strings.NewReader(out), TurtleOptions{Name: "out.ttl"}, func(ts []Triple) error {
		for _, t := range ts {
			if t.S.IsBlank() {
				t.S = NewBlank(strings.TrimPrefix(t.S.Value, "b_"))
			}
			got = append(got, t)
		}
		return nil
	}, func(e *ParseError) error { return e })
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	key := func(ts []Triple) []string {
		var s []string
		for _, t := range ts {
			s = append(s, t.String())
		}
		slices.Sort(s)
		return s
	}
	if a, b := key(in), key(got); !slices.Equal(a, b) {
		t.Errorf("read back %d triples, wrote %d:\n%s", len(b), len(a), out)
	}
	path := filepath.Join(t.TempDir(), "out.ttl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := rdftest.Parse(t, path); n != len(in) {
		t.Errorf("rdflib reads %d triples, want %d", n, len(in))
	}
}

// BenchmarkWriteTurtle writes 100,000 triples of 20,000 subjects, given in reverse
// canonical order (with a tenth of them repeated), as Turtle.
func BenchmarkWriteTurtle(b *testing.B) {
	src := "https://data.example/src/s1/"
	var in []Triple
	for i := 20_000; i > 0; i-- {
		s := NewIRI(src + "record/" + itoa(i))
		for j := 5; j > 0; j-- {
			in = append(in, Triple{S: s, P: NewIRI(src + "p/f" + itoa(j)), O: NewLiteral("value " + itoa(i*j))})
		}
	}
	in = append(in, in[:len(in)/10]...)
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteTurtle(io.Discard, in, nil); err != nil {
			b.Fatal(err)
		}
	}
}
