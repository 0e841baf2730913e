package graph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func p12Runs() [][][]uint32 {
	rng := rand.New(rand.NewPCG(3, 4))
	var all [][][]uint32
	for range 200 {
		core := make([]uint32, 40)
		for i := range core {
			core[i] = uint32(rng.IntN(1 << 22))
		}
		runs := make([][]uint32, 16)
		for i := range runs {
			n := rng.IntN(60)
			if rng.IntN(8) == 0 {
				n = 300 + rng.IntN(700)
			}
			r := make([]uint32, 0, n+20)
			for range n {
				r = append(r, uint32(rng.IntN(1<<22)))
			}
			for _, c := range core {
				if rng.IntN(3) > 0 {
					r = append(r, c)
				}
			}
			slices.Sort(r)
			runs[i] = slices.Compact(r)
		}
		all = append(all, runs)
	}
	return all
}

func BenchmarkP12Sort(b *testing.B) {
	all := p12Runs()
	for b.Loop() {
		for _, runs := range all {
			var rs []uint32
			for _, r := range runs {
				rs = append(rs, r...)
			}
			selectForms(rs, 7, MaxApproxForms)
		}
	}
}

func BenchmarkP12Merge(b *testing.B) {
	all := p12Runs()
	for b.Loop() {
		for _, runs := range all {
			selectRanks(runs, 7, MaxApproxForms)
		}
	}
}
