package align

import (
	"bytes"
	"testing"

	"github.com/trawl-dev/trawl/graph"
)

// BenchmarkEnrich enriches the generated KB of BenchmarkGraphVsKB (about 1.07 million
// facts, in memory) with a 500-record graph (ten attributes, 100 records of works in the
// KB), after one alignment outside the timed loop. One iteration is Enrich (which
// includes Understand) and WriteEnrichment in RDF 1.2 form.
func BenchmarkEnrich(b *testing.B) {
	kbTriples, works := synthKB(140_000, 60_000)
	kb2, err := graph.NewMemory(kbTriples)
	if err != nil {
		b.Fatal(err)
	}
	kb1, err := graph.NewMemory(synthRecords(works, 500, 100))
	if err != nil {
		b.Fatal(err)
	}
	res, err := Align(b.Context(), kb1, kb2, DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	o := DefaultEnrichOptions()
	o.Source = "https://trawl.invalid/src/bench"
	o.RecordClass = srcNS + "Record"
	o.FeatureLabels = map[string]string{srcNS + "attr/title": "Title", srcNS + "attr/author": "Author",
		srcNS + "attr/publisher": "Publisher", srcNS + "attr/isbn": "ISBN", srcNS + "attr/format": "Format"}
	var e *Enrichment
	var out bytes.Buffer
	cpu0 := cpuTime()
	for b.Loop() {
		e, err = Enrich(b.Context(), kb1, kb2, res, o)
		if err != nil {
			b.Fatal(err)
		}
		out.Reset()
		if err := WriteEnrichment(&out, e); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(e.Stats.Linked), "linked")
	b.ReportMetric(float64(e.Stats.NewInstances), "new-instances")
	b.ReportMetric(float64(e.Stats.Facts), "facts")
	b.ReportMetric(float64(bytes.Count(out.Bytes(), []byte("\n"))), "triples")
	for _, r := range e.Understanding.Relations {
		al := ""
		if r.Aligned != nil {
			al = r.Aligned.Relation
		}
		b.Logf("%s: %s %s matched %d/%d", r.Relation, r.Status, al, r.Matched, r.LinkedRecords)
	}
	b.Logf("stats %+v", e.Stats)
}
