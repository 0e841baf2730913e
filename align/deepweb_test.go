package align

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/testutil"
)

// The deep-web test of paris.md §14 step 6 and the thesis prototype (Oita 2012, ch. 3
// §4): about 100 book-like records of a search form (title, author, publisher, price),
// of which 20 describe works that a reference KB of more than 100k real YAGO3 facts
// has, aligned as a star graph against that KB.

const (
	yagoNS   = "http://yago-knowledge.org/resource/"
	schemaNS = "http://schema.org/"
	srcNS    = "http://trawl.example/books/"
)

// yagoIRI turns a YAGO3 entity name into an IRI in the YAGO 4.5 resource namespace.
func yagoIRI(name string) graph.Term {
	return graph.NewIRI(yagoNS + url.PathEscape(name))
}

// yagoLabel is the usual label proxy of a YAGO3 id (the data has no labels): '_' to
// space and the trailing " (…)" disambiguator removed.
func yagoLabel(name string) string {
	s := strings.ReplaceAll(name, "_", " ")
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		s = s[:i]
	}
	return s
}

func readTSV(t testing.TB, path string, fn func(f []string)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fn(strings.Split(sc.Text(), "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// yagoKB builds the reference KB from the shared YAGO3-10 data, in YAGO 4.5 vocabulary:
// the 10,000 entity facts of test.txt and valid.txt (with "X created W" written as
// "W schema:author X"), the 116,638 numeric literal facts (years as xsd:gYear), an
// rdfs:label for each of the 123,182 entities (the label proxy above), and
// "W rdf:type schema:CreativeWork" for the works of created facts. It also returns the
// created facts (creator, work).
func yagoKB(t testing.TB) ([]graph.Triple, [][2]string) {
	t.Helper()
	dir := testutil.SharedData(t, "yago3-10")
	var ts []graph.Triple
	var created [][2]string
	label := graph.NewIRI(graph.RDFSLabel)
	readTSV(t, filepath.Join(dir, "entities.dict"), func(f []string) {
		if len(f) == 2 {
			ts = append(ts, graph.Triple{S: yagoIRI(f[1]), P: label, O: graph.NewLiteral(yagoLabel(f[1]))})
		}
	})
	for _, name := range []string{"test.txt", "valid.txt"} {
		readTSV(t, filepath.Join(dir, name), func(f []string) {
			if len(f) != 3 {
				return
			}
			if f[1] == "created" {
				created = append(created, [2]string{f[0], f[2]})
				ts = append(ts,
					graph.Triple{S: yagoIRI(f[2]), P: graph.NewIRI(schemaNS + "author"), O: yagoIRI(f[0])},
					graph.Triple{S: yagoIRI(f[2]), P: graph.NewIRI(graph.RDFType), O: graph.NewIRI(schemaNS + "CreativeWork")})
				return
			}
			ts = append(ts, graph.Triple{S: yagoIRI(f[0]), P: graph.NewIRI(yagoNS + f[1]), O: yagoIRI(f[2])})
		})
	}
	for _, name := range []string{"train.txt", "val.txt", "test.txt"} {
		readTSV(t, filepath.Join(dir, "literals-yago10plus", name), func(f []string) {
			if len(f) != 3 {
				return
			}
			var o graph.Term
			if strings.HasSuffix(f[1], "Date") {
				o = graph.NewTyped(fmt.Sprintf("%04s", strings.TrimSuffix(f[2], ".0")), graph.XSD+"gYear")
			} else {
				o = graph.NewTyped(f[2], graph.XSD+"decimal")
			}
			ts = append(ts, graph.Triple{S: yagoIRI(f[0]), P: graph.NewIRI(yagoNS + f[1]), O: o})
		})
	}
	slices.SortFunc(created, func(a, b [2]string) int { return strings.Compare(a[1]+a[0], b[1]+b[0]) })
	return ts, created
}

// otherEntities returns entity names of the YAGO3-10 facts that are neither works
// nor creators (people, clubs, places), sorted.
func otherEntities(created [][2]string) []string {
	skip := map[string]bool{}
	for _, c := range created {
		skip[c[0]], skip[c[1]] = true, true
	}
	// A fixed, varied sample: well-known entities of the YAGO3-10 test split.
	var out []string
	for _, n := range []string{"Barack_Obama", "Stan_Collymore", "England_national_football_team", "Lower_Hutt",
		"Ayaan_Hirsi_Ali", "Ronald_Fogleman", "Real_Madrid_C.F.", "Paris", "Berlin", "Albert_Einstein"} {
		if !skip[n] {
			out = append(out, n)
		}
	}
	return out
}

var (
	fakeWords1 = []string{"Velvet", "Quiet", "Amber", "Hollow", "Northern", "Glass", "Restless", "Winter", "Salt", "Crimson", "Paper", "Distant", "Iron", "Silver", "Burning", "Lantern"}
	fakeWords2 = []string{"Orchards", "Harbours", "Cartographer", "Lanterns", "Meridian", "Tidewater", "Almanac", "Ferryman", "Archive", "Orrery", "Beekeeper", "Causeway", "Vineyard", "Tinsmith"}
	fakeFirst  = []string{"Mara", "Oskar", "Ilse", "Teodor", "Wren", "Casimir", "Odile", "Bram", "Liesl", "Ansel", "Petra", "Emrys"}
	fakeLast   = []string{"Vantongeren", "Halloway", "Quenneville", "Marchetti-Doyle", "Ashbury", "Kettleworth", "Osterhout", "Belmonte", "Trevanion", "Lindqvist"}
	publishers = []string{"Penguin Books", "Vintage", "Faber and Faber", "HarperCollins", "Picador", "Gallimard", "Bloomsbury", "Random House"}
)

// bookRecords returns the record graph of a book search form: inKB records for works of
// the created facts (every third work, with realistic variants: a bracketed edition
// note, upper case, "Last, First" authors), and fake records for books the KB does not
// have: made-up titles and authors, except that one in eight has a real author (a
// creator of another work) and one in eight a title that is the label of some KB
// entity (taken from others). It returns the triples and the record IRIs of the works in
// the KB with the work's IRI.
func bookRecords(created [][2]string, others []string, inKB, fake int) ([]graph.Triple, map[string]string) {
	rng := rand.New(rand.NewPCG(3, 7))
	var ts []graph.Triple
	want := map[string]string{}
	attr := func(a string) graph.Term { return graph.NewIRI(srcNS + "attr/" + a) }
	n := 0
	record := func(title, author string) graph.Term {
		r := graph.NewIRI(fmt.Sprintf("%srecord/%d", srcNS, n))
		n++
		ts = append(ts,
			graph.Triple{S: r, P: graph.NewIRI(graph.RDFType), O: graph.NewIRI(srcNS + "Record")},
			graph.Triple{S: r, P: attr("title"), O: graph.NewLiteral(title)},
			graph.Triple{S: r, P: attr("author"), O: graph.NewLiteral(author)},
			graph.Triple{S: r, P: attr("publisher"), O: graph.NewLiteral(publishers[rng.IntN(len(publishers))])},
			graph.Triple{S: r, P: attr("price"), O: graph.NewLiteral(fmt.Sprintf("$%d.99", 5+rng.IntN(40)))})
		return r
	}
	seen := map[string]bool{}
	k := 0
	for i, c := range created {
		if len(want) == inKB {
			break
		}
		if seen[c[1]] || i%3 != 0 {
			continue
		}
		seen[c[1]] = true
		title, author := yagoLabel(c[1]), yagoLabel(c[0])
		switch k % 5 {
		case 1:
			title += " (Special Edition)"
		case 2:
			title = strings.ToUpper(title)
		case 3:
			if f := strings.Fields(author); len(f) == 2 {
				author = f[1] + ", " + f[0]
			}
		}
		k++
		r := record(title, author)
		want[r.Value] = yagoIRI(c[1]).Value
	}
	for i := range fake {
		title := "The " + fakeWords1[rng.IntN(len(fakeWords1))] + " " + fakeWords2[rng.IntN(len(fakeWords2))]
		author := fakeFirst[rng.IntN(len(fakeFirst))] + " " + fakeLast[rng.IntN(len(fakeLast))]
		switch i % 8 {
		case 1:
			author = yagoLabel(created[rng.IntN(len(created))][0])
		case 2:
			title = yagoLabel(others[rng.IntN(len(others))])
		}
		record(title, author)
	}
	return ts, want
}

func TestDeepWebBooks(t *testing.T) {
	ctx := t.Context()
	kbTriples, created := yagoKB(t)
	kb2, err := graph.NewMemory(kbTriples)
	if err != nil {
		t.Fatal(err)
	}
	if kb2.Triples() < 100_000 {
		t.Fatalf("reference KB has %d triples, want ≥ 100k", kb2.Triples())
	}
	recs, want := bookRecords(created, otherEntities(created), 20, 80)
	kb1, err := graph.NewMemory(recs)
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions()
	res, err := Align(ctx, kb1, kb2, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("KB2: %d triples, %d nodes; read %d nodes of it", kb2.Triples(), kb2.Nodes(), res.Stats.KB2Nodes)
	for _, it := range res.Iterations {
		t.Logf("iteration %d: matched %d, +%d ~%d -%d, %d relation pairs, %v", it.Iteration, it.Matched, it.New, it.Changed, it.Lost, it.RelationPairs, it.Elapsed)
	}
	best := map[string]RelationMatch{}
	for _, m := range res.Relations {
		if m.SubKB == 1 && !m.Left.Step(0).IsInverse() {
			if b, ok := best[m.LeftName]; !ok || m.Confidence > b.Confidence {
				best[m.LeftName] = m
			}
		}
	}
	for _, m := range best {
		t.Logf("relation %s ⊆ %s %.3f (n=%.1f)", m.LeftName, m.RightName, m.Confidence, m.N)
	}
	checks := []struct{ attr, want string }{
		{"title", graph.RDFSLabel},
		{"author", schemaNS + "author / " + graph.RDFSLabel},
	}
	for _, c := range checks {
		m, ok := best[srcNS+"attr/"+c.attr]
		if !ok || m.RightName != c.want {
			t.Errorf("best superrelation of %s = %q (%.3f), want %s", c.attr, m.RightName, m.Confidence, c.want)
		}
	}
	linked, correct := 0, 0
	for _, m := range res.Instances {
		w, inKB := want[m.LeftTerm.Value]
		t.Logf("instance %s = %s %.3f (in KB: %v)", m.LeftTerm.Value, m.RightTerm.Value, m.Confidence, inKB)
		if !inKB && m.Confidence >= opts.LinkThreshold {
			t.Errorf("record %s is not in the KB but links to %s at %.3f ≥ %.2f", m.LeftTerm.Value, m.RightTerm.Value, m.Confidence, opts.LinkThreshold)
		}
		if inKB && m.Confidence >= opts.LinkThreshold {
			linked++
			if m.RightTerm.Value == w {
				correct++
			}
		}
	}
	t.Logf("%d of %d records in the KB linked above %.2f, %d correctly", linked, len(want), opts.LinkThreshold, correct)
	if correct < len(want)*3/4 || correct != linked {
		t.Errorf("linked %d records in the KB above the threshold, %d correctly; want at least %d, all correct", linked, correct, len(want)*3/4)
	}
	if res.Stats.KB2Nodes > kb2.Nodes()/10 {
		t.Errorf("read %d of %d KB2 nodes; the aligner should only touch the neighbourhood of the candidates", res.Stats.KB2Nodes, kb2.Nodes())
	}
}
