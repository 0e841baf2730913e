package graph_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/schema"
	"github.com/trawl-dev/trawl/schema/schematest"
)

// BenchmarkLabeled measures building the labeled graph of records under a schema and
// writing it as sorted canonical N-Triples.
func BenchmarkLabeled(b *testing.B) {
	for _, n := range []int{500, 2000} {
		site := schematest.NewSite(schematest.Calibre)
		recs, err := site.Bulk(n, 25)
		if err != nil {
			b.Fatal(err)
		}
		s, err := schema.Build(b.Context(), recs, schema.Input{Form: new(site.Form())}, schema.DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("calibre/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			triples := 0
			for b.Loop() {
				l, err := graph.BuildLabeled(b.Context(), s, recs, graph.DefaultLabeledOptions())
				if err != nil {
					b.Fatal(err)
				}
				if _, err := l.WriteTo(io.Discard); err != nil {
					b.Fatal(err)
				}
				triples = len(l.Records) + len(l.Schema) + len(l.Provenance)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
			b.ReportMetric(float64(triples), "triples")
		})
	}
}
