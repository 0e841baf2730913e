package ontology_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/rdftest"
	"github.com/trawl-dev/trawl/internal/testutil"
	"github.com/trawl-dev/trawl/ontology"
)

// TestLoadRDFXML loads OAEI Persons1's second file converted to RDF/XML by rapper
// (format detected from the .rdf name): the KB has the facts, nodes and literals of the
// N-Triples load. A broken RDF/XML file fails the load with an error naming it.
func TestLoadRDFXML(t *testing.T) {
	path := filepath.Join(testutil.SharedData(t, "oaei2010"), "Persons1/person12.nt")
	rdftest.Parse(t, path) // rapper is there
	xml, err := exec.Command("rapper", "-q", "-i", "ntriples", "-o", "rdfxml", path).Output()
	if err != nil {
		t.Fatalf("rapper: %v", err)
	}
	nt := badgerFrom(t, "person12.nt", readBytes(t, path), ontology.FormatNTriples)
	x := badgerFrom(t, "person12.rdf", xml, ontology.FormatAuto)
	a, b := nt.Stats(), x.Stats()
	if a.Facts != b.Facts || a.Nodes != b.Nodes || a.Literals != b.Literals || a.Entities != b.Entities {
		t.Errorf("N-Triples: %d facts, %d nodes, %d literals, %d entities; RDF/XML: %d, %d, %d, %d",
			a.Facts, a.Nodes, a.Literals, a.Entities, b.Facts, b.Nodes, b.Literals, b.Entities)
	}
	if b.Sources[0].Format != "rdfxml" {
		t.Errorf("format %q, want rdfxml", b.Sources[0].Format)
	}
	_, _, err = ontology.LoadMemory(t.Context(), []ontology.Source{ontology.BytesSource("broken.owl", xml[:len(xml)/2], ontology.FormatAuto)}, smallLoad())
	if err == nil || !strings.Contains(err.Error(), "broken.owl") {
		t.Errorf("error %v, want one naming broken.owl", err)
	}
}
