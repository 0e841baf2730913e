package align

import (
	"fmt"
	"log/slog"
	"testing"
	"time"
)

// BenchmarkScaleLiterals times the literal candidates of BenchmarkScalePersons1 alone:
// matchLiterals (every KB1 literal looked up in KB2's literal index, exact, by date or
// approximately, and scored), on Persons1 replicated ×10 and ×200, with KB2's index
// built beforehand as there. It reports the process CPU of matchLiterals per fact of
// both KBs (lit-cpu-ns/fact), the same denominator as cpu-ns/fact, so that the share
// of the literal lookups in the aligner's growth from ×10 to ×200 can be measured with
// less noise than the whole alignment gives.
func BenchmarkScaleLiterals(b *testing.B) {
	for _, k := range []int{10, 200} {
		b.Run(fmt.Sprintf("x%d", k), func(b *testing.B) {
			kb1, kb2 := persons1Replica(b, k)
			if _, err := kb2.Candidates(b.Context(), "warm up", 1); err != nil { // builds the literal index
				b.Fatal(err)
			}
			opts := DefaultOptions()
			facts := float64(kb1.Triples() + kb2.Triples())
			var cpu time.Duration
			for b.Loop() {
				a := &aligner{
					opts: opts,
					log:  slog.New(slog.DiscardHandler),
					v1:   newView(kb1, "KB1", opts.MaxDegree, 1),
					v2:   newView(kb2, "KB2", opts.MaxDegree, 1),
					lits: kb2,
					rels: newRelTable(),
				}
				a.newWorkers()
				if err := a.loadKB1(b.Context()); err != nil {
					b.Fatal(err)
				}
				c0 := cpuTime()
				n, err := a.matchLiterals(b.Context())
				if err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - c0
				if n == 0 {
					b.Fatal("no KB1 literal found a KB2 literal")
				}
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/facts, "lit-cpu-ns/fact")
		})
	}
}
