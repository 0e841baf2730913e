package graph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMergeRuns checks the merge of FormsInBands against a sort of the concatenation,
// for every number of runs up to two more than numBands, with values shared by
// several runs (a form under several bands) and empty runs.
func TestMergeRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 1))
	for k := 0; k <= numBands+2; k++ {
		for trial := range 20 {
			runs := make([][]uint64, k)
			var want []uint64
			for i := range runs {
				r := make([]uint64, rng.IntN(40))
				for j := range r {
					r[j] = rng.Uint64N(64) // small range: many values repeat across runs
				}
				slices.Sort(r)
				r = slices.Compact(r)
				runs[i] = r
				want = append(want, r...)
			}
			slices.Sort(want)
			orig := make([][]uint64, k)
			for i, r := range runs {
				orig[i] = slices.Clone(r)
			}
			got := mergeRuns(slices.Clone(runs), len(want))
			if !slices.Equal(got, want) {
				t.Fatalf("%d runs, trial %d: merged %v, want %v", k, trial, got, want)
			}
			for i := range runs {
				if !slices.Equal(runs[i], orig[i]) {
					t.Fatalf("%d runs, trial %d: run %d changed to %v, was %v", k, trial, i, runs[i], orig[i])
				}
			}
		}
	}
}

// BenchmarkFormsInBands measures the merge of numBands full bands (MaxBandPostings
// hashes each), the largest answer of FormsInBands, and the sort of the same
// concatenation that it replaces.
func BenchmarkFormsInBands(b *testing.B) {
	rng := rand.New(rand.NewPCG(19, 2))
	runs := make([][]uint64, numBands)
	n := 0
	for i := range runs {
		r := make([]uint64, MaxBandPostings)
		for j := range r {
			r[j] = rng.Uint64N(1 << 20)
		}
		slices.Sort(r)
		runs[i] = r
		n += len(r)
	}
	b.Run("merge", func(b *testing.B) {
		for b.Loop() {
			selectForms(mergeRuns(slices.Clone(runs), n), 0, MaxApproxForms)
		}
	})
	b.Run("sort", func(b *testing.B) {
		for b.Loop() {
			all := make([]uint64, 0, n)
			for _, r := range runs {
				all = append(all, r...)
			}
			selectForms(all, 0, MaxApproxForms)
		}
	})
}
