package ontology_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/internal/testutil"
	"github.com/trawl-dev/trawl/ontology"
	"github.com/trawl-dev/trawl/ontology/demokb"
)

// The two KB implementations, graph.Memory and the Badger store, must give identical
// alignments on the same data: they share the RDF parsers, the date type and the
// literal-match semantics (graph.MatchLiterals), and differ only in storage and
// identifiers. The tests compare the aligner's output files byte for byte.

// alignFiles aligns kb1 with kb2 and returns alignment.tsv and links.nt.
func alignFiles(t *testing.T, kb1, kb2 align.KB) string {
	t.Helper()
	res, err := align.Align(t.Context(), kb1, kb2, align.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := align.WriteTSV(&b, res); err != nil {
		t.Fatal(err)
	}
	b.WriteString("--- links\n")
	if err := align.WriteLinks(&b, res, res.Options.LinkThreshold); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// sameAlignment fails the test, with the first differing lines, if two outputs differ.
func sameAlignment(t *testing.T, what, a, b string) {
	t.Helper()
	if a == b {
		return
	}
	if os.Getenv("PARITY_DUMP") != "" {
		os.WriteFile("/tmp/parity-mem.txt", []byte(a), 0o644)
		os.WriteFile("/tmp/parity-badger.txt", []byte(b), 0o644)
	}
	la, lb := bytes.Split([]byte(a), []byte("\n")), bytes.Split([]byte(b), []byte("\n"))
	shown := 0
	for i := 0; i < max(len(la), len(lb)) && shown < 10; i++ {
		var x, y []byte
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s: line %d differs:\n  memory: %s\n  badger: %s", what, i+1, x, y)
			shown++
		}
	}
	t.Errorf("%s: the memory KB and the Badger KB give different alignments (%d vs %d lines)", what, len(la), len(lb))
}

// badgerFrom loads data into an in-memory Badger store.
func badgerFrom(t *testing.T, name string, data []byte, f ontology.Format) *ontology.Store {
	t.Helper()
	opts := smallLoad()
	opts.DeriveLabels = false
	st, rep, err := ontology.LoadMemory(t.Context(), []ontology.Source{ontology.BytesSource(name, data, f)}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.BadLines != 0 {
		t.Fatalf("%s: bad lines %v", name, rep.Errors)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestKBParityOAEI(t *testing.T) {
	dir := testutil.SharedData(t, "oaei2010")
	for _, task := range []struct{ name, a, b string }{
		{"Persons1", "Persons1/person11.nt", "Persons1/person12.nt"},
		{"Restaurants", "Restaurants/restaurant1.nt", "Restaurants/restaurant2.nt"},
	} {
		t.Run(task.name, func(t *testing.T) {
			mem := func(p string) *graph.Memory {
				m, err := graph.LoadMemory(t.Context(), filepath.Join(dir, p), graph.MemoryOptions{})
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			m1, m2 := mem(task.a), mem(task.b)
			b1 := badgerFrom(t, task.a, readBytes(t, filepath.Join(dir, task.a)), ontology.FormatNTriples)
			b2 := badgerFrom(t, task.b, readBytes(t, filepath.Join(dir, task.b)), ontology.FormatNTriples)
			ref := alignFiles(t, m1, m2)
			if bytes.Count([]byte(ref), []byte("\ninstance\t")) < 100 {
				t.Fatalf("the reference alignment has too few instances:\n%.500s", ref)
			}
			sameAlignment(t, "KB2 in Badger", ref, alignFiles(t, m1, b2))
			sameAlignment(t, "both KBs in Badger", ref, alignFiles(t, b1, b2))
		})
	}
}

// TestKBParityDemo aligns the records of the demo site (the book cards `trawl demo`
// probes: title, author, year, language, price) with the embedded demo KB, once as the
// Badger store `trawl demo` opens (ontology.OpenDemo) and once as a graph.Memory read
// from the same Turtle dump with graph.ReadTurtle.
func TestKBParityDemo(t *testing.T) {
	ctx := t.Context()
	st, err := ontology.OpenDemo(ctx, ontology.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	zr, err := gzip.NewReader(bytes.NewReader(demokb.Dump()))
	if err != nil {
		t.Fatal(err)
	}
	var kbTriples []graph.Triple
	emit := func(ts []graph.Triple) error { kbTriples = append(kbTriples, ts...); return nil }
	bad := func(e *graph.ParseError) error { return e }
	// The Badger loader scopes the blank nodes of its first file with "f0".
	if err := graph.ReadTurtle(zr, graph.TurtleOptions{Name: demokb.Name, BlankPrefix: "f0"}, emit, bad); err != nil {
		t.Fatal(err)
	}
	mem, err := graph.NewMemory(kbTriples)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := int64(mem.Triples()+mem.TaxonomyTriples()), st.Stats().Facts; got != want {
		t.Fatalf("memory KB has %d facts, Badger %d", got, want)
	}

	site := testsites.Demo()
	const ns = "https://trawl.invalid/src/demo/"
	var recs []graph.Triple
	for _, r := range site.Records {
		s := graph.NewIRI(ns + "rec/" + r.ID)
		recs = append(recs, graph.Triple{S: s, P: graph.NewIRI(graph.RDFType), O: graph.NewIRI(ns + "Record")})
		for _, attr := range site.Attributes {
			v := r.Values[attr]
			if v == "" {
				continue
			}
			o := graph.NewLiteral(v)
			if attr == "year" {
				o = graph.NewTyped(v, graph.XSD+"gYear") // as the labeled graph types years
			}
			recs = append(recs, graph.Triple{S: s, P: graph.NewIRI(ns + "p/" + attr), O: o})
		}
	}
	kb1, err := graph.NewMemory(recs)
	if err != nil {
		t.Fatal(err)
	}
	ref := alignFiles(t, kb1, mem)
	linked := bytes.Count([]byte(ref[bytes.Index([]byte(ref), []byte("--- links")):]), []byte("\n")) - 1
	if linked < 50 {
		t.Fatalf("only %d demo records linked to the demo KB:\n%.1000s", linked, ref)
	}
	sameAlignment(t, "demo", ref, alignFiles(t, kb1, st))
	t.Logf("%d of %d demo records linked, identically with both KBs", linked, len(site.Records))
}

// TestCandidatesParity asks both KBs for the literal candidates of every literal of
// Persons1's second file and of perturbed variants (approximate matches), and of years
// and dates: the answers must be equal, term for term and score for score.
func TestCandidatesParity(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(testutil.SharedData(t, "oaei2010"), "Persons1/person12.nt")
	mem, err := graph.LoadMemory(ctx, path, graph.MemoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st := badgerFrom(t, "person12.nt", readBytes(t, path), ontology.FormatNTriples)
	var texts []string
	for i := 1; i <= mem.Nodes(); i++ {
		term, _ := mem.Term(ctx, graph.ID(i))
		if term.Kind != graph.KindLiteral {
			continue
		}
		texts = append(texts, term.Value)
		if r := []rune(term.Value); len(r) > 3 {
			r[len(r)/2] = 'x'
			texts = append(texts, string(r))
		}
	}
	texts = append(texts, "1969", "1970-##-##", "12 May 1938", "bakes luke")
	slices.Sort(texts)
	texts = slices.Compact(texts)
	describe := func(kb align.KB, cs []graph.Candidate) string {
		var b bytes.Buffer
		for _, c := range cs {
			term, err := kb.Term(ctx, c.Node)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s %v %.9f; ", term, c.Exact, c.Score)
		}
		return b.String()
	}
	diff := 0
	for _, text := range texts {
		a, err := mem.Candidates(ctx, text, 10)
		if err != nil {
			t.Fatal(err)
		}
		b, err := st.Candidates(ctx, text, 10)
		if err != nil {
			t.Fatal(err)
		}
		if da, db := describe(mem, a), describe(st, b); da != db {
			if diff++; diff <= 5 {
				t.Errorf("Candidates(%q):\n  memory: %s\n  badger: %s", text, da, db)
			}
		}
	}
	if diff > 0 {
		t.Errorf("%d of %d texts get different candidates", diff, len(texts))
	}
	t.Logf("%d texts, the same candidates from both KBs", len(texts))
}

func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
