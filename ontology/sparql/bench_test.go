package sparql_test

import (
	"path/filepath"
	"testing"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/internal/rdftest"
	"github.com/trawl-dev/trawl/ontology"
	"github.com/trawl-dev/trawl/ontology/sparql"
)

// BenchmarkDemoAlign aligns the demo records with the demo KB per run: through
// Virtuoso (a fresh KB per run, relation statistics from the cache as in a second run)
// and, for comparison, with the Badger store (opened once, as trawl demo does).
// queries/op and request-s/op are what one run asks the endpoint.
func BenchmarkDemoAlign(b *testing.B) {
	ep := rdftest.Virtuoso(b)
	kb1 := demoRecords(b)
	b.Run("sparql", func(b *testing.B) {
		o := sparql.DefaultOptions()
		o.Graph = rdftest.DemoGraph
		o.Cache = filepath.Join(b.TempDir(), "cache.json")
		var q, secs float64
		for b.Loop() {
			kb, err := sparql.Open(b.Context(), ep.SPARQL(), o)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := align.Align(b.Context(), kb1, kb, align.DefaultOptions()); err != nil {
				b.Fatal(err)
			}
			st := kb.Stats()
			q += float64(st.Queries)
			secs += st.Time.Seconds()
		}
		b.ReportMetric(q/float64(b.N), "queries/op")
		b.ReportMetric(secs/float64(b.N), "request-s/op")
	})
	b.Run("badger", func(b *testing.B) {
		st, err := ontology.OpenDemo(b.Context(), ontology.DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		for b.Loop() {
			if _, err := align.Align(b.Context(), kb1, st, align.DefaultOptions()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
