package ontology_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/testutil"
	"github.com/trawl-dev/trawl/ontology"
)

const (
	mf   = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#"
	rdft = "http://www.w3.org/ns/rdftest#"
)

type w3cTest struct {
	name, kind, action string
}

// manifestTests reads a W3C test manifest with the loader's own Turtle parser and
// walks its mf:entries list through the store API.
func manifestTests(t *testing.T, path, base string) []w3cTest {
	t.Helper()
	ctx := t.Context()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src := ontology.BytesSource(path, data, ontology.FormatTurtle)
	src.Base = base
	st, _, err := ontology.LoadMemory(ctx, []ontology.Source{src}, smallLoad())
	if err != nil {
		t.Fatalf("load manifest: %v", err)
	}
	defer st.Close()
	node := func(iri string) graph.ID {
		id, ok, err := st.Lookup(ctx, graph.NewIRI(iri))
		if err != nil || !ok {
			t.Fatalf("manifest has no %s (%v)", iri, err)
		}
		return id
	}
	out := func(n graph.ID, rel string) []graph.ID {
		r, ok := st.RelationID(rel)
		if !ok {
			t.Fatalf("manifest has no relation %s", rel)
		}
		var ids []graph.ID
		for e, err := range st.Edges(ctx, n) {
			if err != nil {
				t.Fatal(err)
			}
			if e.Rel == r {
				ids = append(ids, e.Node)
			}
		}
		return ids
	}
	iri := func(n graph.ID) string {
		term, err := st.Term(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		return term.Value
	}
	var tests []w3cTest
	var manifests []graph.ID
	for m, err := range st.Instances(ctx, node(mf+"Manifest")) {
		if err != nil {
			t.Fatal(err)
		}
		manifests = append(manifests, m)
	}
	if len(manifests) != 1 {
		t.Fatalf("%d mf:Manifest instances", len(manifests))
	}
	entries := out(manifests[0], mf+"entries")
	if len(entries) != 1 {
		t.Fatalf("mf:entries has %d values", len(entries))
	}
	for l := entries[0]; iri(l) != graph.RDF+"nil"; l = out(l, graph.RDF+"rest")[0] {
		entry := out(l, graph.RDF+"first")[0]
		types, err := st.Types(ctx, entry)
		if err != nil || len(types) != 1 {
			t.Fatalf("entry %s has types %v (%v)", iri(entry), types, err)
		}
		action := iri(out(entry, mf+"action")[0])
		name := iri(entry)
		tests = append(tests, w3cTest{name: name[strings.LastIndexByte(name, '#')+1:],
			kind: strings.TrimPrefix(iri(types[0]), rdft), action: strings.TrimPrefix(action, base)})
	}
	return tests
}

func smallLoad() ontology.LoadOptions {
	o := ontology.DefaultLoadOptions()
	o.SortMemoryMB = 32
	return o
}

// readNT parses an N-Triples file with the graph package's reader: the expected
// triples.
func readNT(t *testing.T, path string) []graph.Triple {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := graph.NewReader(f, path)
	var ts []graph.Triple
	for {
		tr, err := r.Read()
		if err == io.EOF {
			return ts
		}
		if err != nil {
			t.Fatalf("graph reader: %v", err)
		}
		ts = append(ts, tr)
	}
}

// storedTriples returns the triples of a KB as canonical lines, with the loader's
// file scope removed from blank node labels ("_:f0_b1" → "_:b1").
func storedTriples(t *testing.T, st *ontology.Store) []string {
	t.Helper()
	var lines []string
	for tr, err := range st.Triples(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, unscope(tr.String()))
	}
	slices.Sort(lines)
	return lines
}

func unscope(s string) string { return strings.ReplaceAll(s, "_:f0_", "_:") }

func canonical(ts []graph.Triple) []string {
	var lines []string
	for _, tr := range ts {
		lines = append(lines, tr.String())
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}

// TestW3CNTriples loads every positive test of the W3C RDF 1.1 N-Triples suite and of
// the RDF 1.2 canonicalisation suite and checks the stored triples, and checks that
// every negative test is rejected with the file and line of the bad statement.
func TestW3CNTriples(t *testing.T) {
	for _, suite := range []struct{ dir, base string }{
		{"w3c-ntriples/rdf11", "https://w3c.github.io/rdf-tests/rdf/rdf11/rdf-n-triples/"},
		{"w3c-ntriples/rdf12-c14n", "https://w3c.github.io/rdf-tests/rdf/rdf12/rdf-n-triples/c14n/"},
	} {
		dir := testutil.SharedData(t, suite.dir)
		tests := manifestTests(t, filepath.Join(dir, "manifest.ttl"), suite.base)
		if len(tests) == 0 {
			t.Fatalf("%s: no tests", suite.dir)
		}
		var pos, neg int
		for _, tc := range tests {
			t.Run(filepath.Base(suite.dir)+"/"+tc.name, func(t *testing.T) {
				path := filepath.Join(dir, tc.action)
				opts := smallLoad()
				opts.MaxErrors = 0
				st, _, err := ontology.LoadMemory(t.Context(), []ontology.Source{ontology.FileSource(path)}, opts)
				switch {
				case strings.Contains(tc.kind, "Negative"):
					neg++
					if err == nil {
						st.Close()
						t.Fatalf("negative test %s was accepted", tc.action)
					}
					var pe *graph.ParseError
					if !errors.As(err, &pe) || !errors.Is(err, ontology.ErrTooManyErrors) || pe.File != path || pe.Line < 1 {
						t.Fatalf("rejection of %s does not name file and line: %v", tc.action, err)
					}
				default:
					pos++
					if err != nil {
						t.Fatalf("positive test %s: %v", tc.action, err)
					}
					defer st.Close()
					want := canonical(readNT(t, path))
					got := storedTriples(t, st)
					if !slices.Equal(got, want) {
						t.Errorf("%s: stored\n%s\nwant\n%s", tc.action, strings.Join(got, "\n"), strings.Join(want, "\n"))
					}
				}
			})
		}
		t.Logf("%s: %d tests", suite.dir, len(tests))
	}
}

var _ = context.Background
