package align

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rdftest"
	"github.com/trawl-dev/trawl/internal/testutil"
)

// TestPersons1RDFXML converts OAEI 2010 Persons1 to RDF/XML with rapper (as the OAEI
// distributes many tasks) and aligns the RDF/XML files: the same facts are read, and
// the instance alignment scores F1 1.000 as from N-Triples, with the same links.
func TestPersons1RDFXML(t *testing.T) {
	rdftest.Parse(t, filepath.Join(testutil.SharedData(t, "oaei2010"), "Persons1/person11.nt")) // rapper and rdflib are there
	dir := t.TempDir()
	src := testutil.SharedData(t, "oaei2010")
	var xml [2]string
	for i, f := range []string{"person11.nt", "person12.nt"} {
		xml[i] = filepath.Join(dir, f[:len(f)-3]+".rdf")
		cmd := exec.Command("rapper", "-q", "-i", "ntriples", "-o", "rdfxml", filepath.Join(src, "Persons1", f))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("rapper: %v", err)
		}
		if err := writeFile(xml[i], out); err != nil {
			t.Fatal(err)
		}
	}
	nt1, nt2 := loadPair(t, "Persons1/person11.nt", "Persons1/person12.nt")
	x1, err := graph.LoadMemory(t.Context(), xml[0], graph.MemoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	x2, err := graph.LoadMemory(t.Context(), xml[1], graph.MemoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if x1.Triples() != nt1.Triples() || x2.Triples() != nt2.Triples() || x1.TaxonomyTriples() != nt1.TaxonomyTriples() {
		t.Fatalf("RDF/XML read %d+%d facts, N-Triples %d+%d", x1.Triples(), x2.Triples(), nt1.Triples(), nt2.Triples())
	}
	score := func(kb1, kb2 *graph.Memory) (Score, int) {
		res, err := Align(t.Context(), kb1, kb2, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		gold := loadGolds(t, kb1, kb2, "Persons1/dataset11_dataset12_goldstandard_person.xml")
		links := 0
		for _, m := range res.Instances {
			if m.Confidence >= res.Options.LinkThreshold {
				links++
			}
		}
		return scoreOf(t, Evaluate(res, gold), "instance", ""), links
	}
	sn, ln := score(nt1, nt2)
	sx, lx := score(x1, x2)
	t.Logf("N-Triples: F1 %.3f, %d links; RDF/XML: F1 %.3f, %d links", sn.F1, ln, sx.F1, lx)
	if sx.F1 != 1 || sx.F1 != sn.F1 || sx.Correct != sn.Correct || lx != ln {
		t.Errorf("RDF/XML %+v (%d links), N-Triples %+v (%d links)", sx, lx, sn, ln)
	}
}

func writeFile(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }
