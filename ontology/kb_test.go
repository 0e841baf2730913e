package ontology_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/testutil"
	"github.com/trawl-dev/trawl/ontology"
)

// The Badger store is one of the aligner's KB views.
var _ align.KB = (*ontology.Store)(nil)

func loadFiles(t *testing.T, paths ...string) (*ontology.Store, *ontology.LoadReport) {
	t.Helper()
	var srcs []ontology.Source
	for _, p := range paths {
		srcs = append(srcs, ontology.FileSource(p))
	}
	opts := ontology.DefaultLoadOptions()
	opts.SortMemoryMB = 64
	st, rep, err := ontology.LoadMemory(t.Context(), srcs, opts)
	if err != nil {
		t.Fatalf("load %v: %v", paths, err)
	}
	t.Cleanup(func() { st.Close() })
	return st, rep
}

// TestFunctionalityOAEI checks the harmonic functionalities against the oracle values
// of the design notes (paris.md §2.1), recomputed there from the same files.
func TestFunctionalityOAEI(t *testing.T) {
	dir := testutil.SharedData(t, "oaei2010")
	tests := []struct {
		file  string
		facts int64
		inv   map[string]float64
	}{
		{"Persons1/person11.nt", 9000, map[string]float64{"type": 0.002, "soc_sec_id": 1, "has_address": 1, "is_in_suburb": 1, "is_in_state": 1,
			"phone_numer": 0.950, "street": 0.944, "date_of_birth": 0.908, "surname": 0.874, "postcode": 0.796,
			"given_name": 0.524, "name": 0.432, "house_number": 0.320, "age": 0.054}},
		{"Persons1/person12.nt", 7000, map[string]float64{"type": 0.002, "soc_sec_id": 1, "has_address": 1, "phone_numer": 0.946,
			"street": 0.938, "surname": 0.904, "date_of_birth": 0.900, "suburb": 0.870, "postcode": 0.818,
			"given_name": 0.590, "house_number": 0.330, "state": 0.068, "age": 0.066}},
		{"Restaurants/restaurant1.nt", 1130, map[string]float64{"type": 0.009, "has_address": 1, "is_in_city": 1, "phone_number": 0.991,
			"street": 0.991, "name": 0.558, "category": 0.168}},
		{"Restaurants/restaurant2.nt", 7520, map[string]float64{"type": 0.001, "has_address": 1, "has_category": 1, "phone_number": 0.995,
			"street": 0.973, "name": 0.550, "city": 0.065}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			st, _ := loadFiles(t, filepath.Join(dir, tc.file))
			stats := st.Stats()
			if stats.Facts != tc.facts {
				t.Errorf("facts = %d, want %d", stats.Facts, tc.facts)
			}
			seen := 0
			for _, r := range stats.Relations {
				local := r.IRI[lastSep(r.IRI)+1:]
				if r.Taxonomy && local != "type" {
					t.Errorf("unexpected taxonomy relation %s", r.IRI)
				}
				want, ok := tc.inv[local]
				if !ok {
					t.Errorf("relation %s not in the oracle", r.IRI)
					continue
				}
				seen++
				if math.Abs(r.Functionality-1) > 1e-9 {
					t.Errorf("fun(%s) = %.4f, want 1", local, r.Functionality)
				}
				if math.Abs(r.InverseFunctionality-want) > 0.0005 {
					t.Errorf("fun⁻¹(%s) = %.4f, want %.3f", local, r.InverseFunctionality, want)
				}
				rel, _ := st.RelationID(r.IRI)
				if got := st.Functionality(rel.Inverse()); math.Abs(got-r.InverseFunctionality) > 1e-12 {
					t.Errorf("Functionality(%s⁻) = %v, Stats says %v", local, got, r.InverseFunctionality)
				}
			}
			if seen != len(tc.inv) {
				t.Errorf("saw %d relations of the oracle, want %d", seen, len(tc.inv))
			}
		})
	}
}

func lastSep(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '#' || s[i] == '/' {
			return i
		}
	}
	return -1
}

var _ = context.Background
var _ = graph.ID(0)

// TestGzipSources: each format loads gzip-compressed too, detected from the content.
func TestGzipSources(t *testing.T) {
	gz := func(data []byte) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write(data)
		w.Close()
		return b.Bytes()
	}
	nt := []byte("<http://a> <http://p> \"x\" .\n<http://a> <http://q> <http://b> .\n")
	tsv := []byte("Stan_Collymore\tplaysFor\tEngland_national_football_team\n")
	for _, tc := range []struct {
		name   string
		data   []byte
		format string
		facts  int64
	}{
		{"books.ttl.gz", gz([]byte(books)), "turtle", 0},
		{"dump.nt.gz", gz(nt), "ntriples", 2},
		{"facts.tsv.gz", gz(tsv), "tsv", 3},
		{"no-extension", gz(nt), "ntriples", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, rep, err := ontology.LoadMemory(t.Context(), []ontology.Source{ontology.BytesSource(tc.name, tc.data, ontology.FormatAuto)}, smallLoad())
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if rep.Sources[0].Format != tc.format || rep.BadLines != 0 || tc.facts > 0 && rep.Facts != tc.facts || rep.Facts == 0 {
				t.Errorf("format %s, %d facts, %d bad lines", rep.Sources[0].Format, rep.Facts, rep.BadLines)
			}
		})
	}
}
