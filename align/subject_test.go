//go:build unix

package align

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/graph"
)

// subjectKB is a small KB in which book titles repeat (each title is shared by three
// books) while authors' names are unique and every author wrote three books: a record's
// title alone matches three books, its author's name one person, and only the two
// together identify its book.
func subjectKB(t testing.TB) (kb1, kb2 *graph.Memory, gold map[string]string) {
	const authors, perAuthor, sharing = 1000, 3, 3
	label := graph.NewIRI(graph.RDFSLabel)
	typ := graph.NewIRI(graph.RDFType)
	author := graph.NewIRI(schemaNS + "author")
	published := graph.NewIRI(schemaNS + "datePublished")
	var ts, rs []graph.Triple
	gold = map[string]string{}
	attr := func(a string) graph.Term { return graph.NewIRI(srcNS + "attr/" + a) }
	for a := range authors {
		p := graph.NewIRI(fmt.Sprintf("%sperson_%d", yagoNS, a))
		name := fmt.Sprintf("Author %d Name", a)
		ts = append(ts, graph.Triple{S: p, P: label, O: graph.NewLiteral(name)},
			graph.Triple{S: p, P: typ, O: graph.NewIRI(schemaNS + "Person")})
		for k := range perAuthor {
			i := a*perAuthor + k
			w := graph.NewIRI(fmt.Sprintf("%swork_%d", yagoNS, i))
			// Books i, i+1000 and i+2000, of different authors, share a title.
			title := fmt.Sprintf("Collected Stories %d", i%(authors*perAuthor/sharing))
			year := fmt.Sprint(1900 + i)
			ts = append(ts, graph.Triple{S: w, P: label, O: graph.NewLiteral(title)},
				graph.Triple{S: w, P: author, O: p},
				graph.Triple{S: w, P: published, O: graph.NewTyped(year, graph.XSD+"gYear")},
				graph.Triple{S: w, P: typ, O: graph.NewIRI(schemaNS + "Book")})
			if k == 0 {
				r := graph.NewIRI(fmt.Sprintf("%srecord/%d", srcNS, a))
				gold[r.Value] = w.Value
				rs = append(rs, graph.Triple{S: r, P: attr("title"), O: graph.NewLiteral(title)},
					graph.Triple{S: r, P: attr("author"), O: graph.NewLiteral(name)},
					graph.Triple{S: r, P: typ, O: graph.NewIRI(srcNS + "Record")})
			}
		}
	}
	var err error
	if kb1, err = graph.NewMemory(rs); err != nil {
		t.Fatal(err)
	}
	if kb2, err = graph.NewMemory(ts); err != nil {
		t.Fatal(err)
	}
	return kb1, kb2, gold
}

// linkCounts counts the links of res (InstanceMatch.Linked) that gold confirms, and
// how many link KB1 entities to a KB2 entity whose IRI holds kind.
func linkCounts(res *Result, gold map[string]string, kind string) (links, correct, ofKind int) {
	for _, m := range res.Instances {
		if !m.Linked(res.Options) {
			continue
		}
		links++
		if gold[m.LeftTerm.Value] == m.RightTerm.Value {
			correct++
		}
		if strings.Contains(m.RightTerm.Value, kind) {
			ofKind++
		}
	}
	return links, correct, ofKind
}

// TestRecordSubject checks that a book record whose title is shared by several books
// and whose author's name is unique is linked to its book, not to its author (subject
// joins and joint proposals, subject.go), and that without subject joins it is not
// linked to its book.
func TestRecordSubject(t *testing.T) {
	kb1, kb2, gold := subjectKB(t)
	for _, on := range []bool{true, false} {
		opts := DefaultOptions()
		opts.SubjectJoins = on
		res, err := Align(t.Context(), kb1, kb2, opts)
		if err != nil {
			t.Fatal(err)
		}
		links, correct, persons := linkCounts(res, gold, "person_")
		t.Logf("subject joins %v: %d links, %d correct, %d to persons, of %d records", on, links, correct, persons, len(gold))
		if on && (correct != len(gold) || links != correct) {
			t.Errorf("subject joins on: %d links, %d correct, want all %d records linked to their books", links, correct, len(gold))
		}
		if !on && correct == len(gold) {
			t.Errorf("subject joins off: every record linked to its book; the case no longer needs subject joins and tests nothing")
		}
	}
}

// TestLinkingRecordSubject aligns the YAGO-shaped KB of BenchmarkScaleGraphVsKB at ×10
// (1.04M facts: titles shared by several of the 140k works, names of the 60k people
// nearly unique) and ×30 (3.1M facts: names shared too) with record sources of several
// shapes. Before subject joins every book record was linked to its author at ×10 with
// confidence 0.999 (P = R = 0), and nothing was linked at ×30.
func TestLinkingRecordSubject(t *testing.T) {
	skipLinkingUnderRace(t)
	if testing.Short() {
		t.Skip("aligns sources with KBs of one and three million facts; run without -short")
	}
	for _, k := range []int{10, 30} {
		kbTriples, works := synthKB(14_000*k, 6_000*k)
		kb2, err := graph.NewMemory(kbTriples)
		if err != nil {
			t.Fatal(err)
		}
		n := 200 * k
		records := synthRecords(works, n, n/10)
		gold := map[string]string{}
		for i := range n / 10 {
			gold[fmt.Sprintf("%srecord/%d", srcNS, i)] = fmt.Sprintf("%swork_%d", yagoNS, i*(len(works)/(n/10)))
		}
		only := func(keep ...string) []graph.Triple {
			var out []graph.Triple
			for _, tr := range records {
				a, ok := strings.CutPrefix(tr.P.Value, srcNS+"attr/")
				if !ok || strings.Contains(","+strings.Join(keep, ",")+",", ","+a+",") {
					out = append(out, tr)
				}
			}
			return out
		}
		for _, c := range []struct {
			name    string
			triples []graph.Triple
			// wantR is the least recall; 0 means no link may be made (no value of the
			// records identifies a book), -1 no bound on recall.
			wantR float64
		}{
			{"ten attributes", records, 0.9},
			{"title and author", only("title", "author"), 0.9},
			{"no title", only("author", "year", "publisher", "genre"), 0},
			// A year is shared by ~840 of the 140k books: with a title that several
			// books share, a book of the year could share it by chance too often
			// (jointMaxChance); only the records whose title is rarer are linked.
			{"title and year", only("title", "year"), -1},
		} {
			t.Run(fmt.Sprintf("x%d/%s", k, strings.ReplaceAll(c.name, " ", "_")), func(t *testing.T) {
				kb1, err := graph.NewMemory(c.triples)
				if err != nil {
					t.Fatal(err)
				}
				res, err := Align(t.Context(), kb1, kb2, DefaultOptions())
				if err != nil {
					t.Fatal(err)
				}
				links, correct, persons := linkCounts(res, gold, "person_")
				t.Logf("×%d %s: %d links, %d correct, %d to persons; %d records of %d describe works of the KB", k, c.name, links, correct, persons, len(gold), n)
				if persons > 0 {
					t.Errorf("%d book records linked to persons", persons)
				}
				if c.wantR == 0 {
					if links > 0 {
						t.Errorf("%d links, want none: no value of these records identifies a book", links)
					}
					return
				}
				if p := float64(correct) / float64(links); links > 0 && p < 0.95 {
					t.Errorf("P %.3f, want ≥ 0.95", p)
				}
				if r := float64(correct) / float64(len(gold)); r < c.wantR {
					t.Errorf("R %.3f, want ≥ %.2f", r, c.wantR)
				}
			})
		}
	}
}
