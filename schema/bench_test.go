package schema_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/trawl-dev/trawl/schema"
	"github.com/trawl-dev/trawl/schema/schematest"
)

// BenchmarkBuild measures attribute alignment (paths, composite splitting, filters,
// types, labels) without mapping, on calibre-like and table records.
func BenchmarkBuild(b *testing.B) {
	for _, l := range []schematest.Layout{schematest.Calibre, schematest.Table} {
		for _, n := range []int{500, 2000} {
			site := schematest.NewSite(l)
			recs, err := site.Bulk(n, 25)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/%d", l, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					s, err := schema.Build(b.Context(), recs, schema.Input{}, schema.DefaultOptions())
					if err != nil || len(s.Features) == 0 {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
			})
		}
	}
}

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
				l, err := schema.BuildLabeled(b.Context(), s, recs, schema.DefaultLabeledOptions())
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
