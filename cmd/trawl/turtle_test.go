package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/rdftest"
	"github.com/trawl-dev/trawl/internal/rundir"
)

// TestTurtleCopies: --format turtle writes a .ttl beside each N-Triples output, with
// the same triples (rapper and rdflib read them), and none for a missing output.
func TestTurtleCopies(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../align/testdata/enrichment-books.nt")
	if err != nil {
		t.Fatal(err)
	}
	// The fixture is of the RDF 1.2 mode: its lines with triple terms are left out.
	var keep []string
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" && !strings.Contains(l, "<<(") {
			keep = append(keep, l)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, rundir.EnrichmentFile), []byte(strings.Join(keep, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := writeTurtleCopies(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || filepath.Base(got[0]) != "enrichment.ttl" {
		t.Fatalf("wrote %v, want enrichment.ttl only", got)
	}
	nt := rdftest.Parse(t, filepath.Join(dir, rundir.EnrichmentFile))
	if ttl := rdftest.Parse(t, got[0]); ttl != nt || nt == 0 {
		t.Errorf("rdflib reads %d triples from the Turtle copy, %d from the N-Triples", ttl, nt)
	}
	if err := checkFormat("run", "rdfxml"); err == nil {
		t.Error("--format rdfxml accepted")
	}
}
