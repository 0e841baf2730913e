package align

import (
	"math"
	"reflect"
	"testing"
)

// TestKB2Renumbered checks renumberKB2, which lays KB2's view out in the order of the
// KB1 partners after the first iteration. The result must not depend on the number of
// goroutines (bit for bit), and must be that of keeping the order of the reads up to
// the rounding of sums taken in another order: the same pairs, iterations and units of
// work, scores within 1e-12. The partners of consecutive KB1 nodes must lie closer
// together in KB2's view.
func TestKB2Renumbered(t *testing.T) {
	r1, r2 := persons1Replica(t, 3)
	p1, p2 := loadPair(t, "Persons1/person11.nt", "Persons1/person12.nt")
	s1, s2 := loadPair(t, "Restaurants/restaurant1.nt", "Restaurants/restaurant2.nt")
	for _, c := range []struct {
		name     string
		kb1, kb2 KB
	}{
		{"Persons1 ×3", r1, r2},
		{"Persons1", p1, p2},
		{"Persons1 reversed", p2, p1},
		{"Restaurants", s1, s2},
		{"Restaurants reversed", s2, s1},
	} {
		var first *Result
		for _, workers := range []int{1, 3} {
			opts := DefaultOptions()
			opts.Workers = workers
			got, err := Align(t.Context(), c.kb1, c.kb2, opts)
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = got
			} else if !reflect.DeepEqual(got.Instances, first.Instances) || !reflect.DeepEqual(got.Relations, first.Relations) || !reflect.DeepEqual(got.Classes, first.Classes) {
				t.Errorf("%s: the result on %d goroutines differs from that on 1", c.name, workers)
			}
		}
		opts := DefaultOptions()
		opts.keepKB2Order = true
		want, err := Align(t.Context(), c.kb1, c.kb2, opts)
		if err != nil {
			t.Fatal(err)
		}
		got := first
		if len(got.Instances) != len(want.Instances) {
			t.Errorf("%s: %d instance matches, %d without renumbering", c.name, len(got.Instances), len(want.Instances))
		} else {
			for k, m := range got.Instances {
				w := want.Instances[k]
				if m.LeftTerm != w.LeftTerm || m.RightTerm != w.RightTerm || m.Support != w.Support || m.Comparable != w.Comparable || !nearScore(m.Confidence, w.Confidence) {
					t.Errorf("%s: instance match %+v, without renumbering %+v", c.name, m, w)
					break
				}
			}
		}
		if len(got.Relations) != len(want.Relations) {
			t.Errorf("%s: %d relation matches, %d without renumbering", c.name, len(got.Relations), len(want.Relations))
		} else {
			for k, m := range got.Relations {
				w := want.Relations[k]
				if m.SubKB != w.SubKB || m.Left != w.Left || m.Right != w.Right || !nearScore(m.Confidence, w.Confidence) || !nearScore(m.N, w.N) {
					t.Errorf("%s: relation match %+v, without renumbering %+v", c.name, m, w)
					break
				}
			}
		}
		if len(got.Classes) != len(want.Classes) {
			t.Errorf("%s: %d class matches, %d without renumbering", c.name, len(got.Classes), len(want.Classes))
		}
		if len(got.Iterations) != len(want.Iterations) || got.work != want.work {
			t.Errorf("%s: %d iterations, work %+v; without renumbering %d, %+v", c.name, len(got.Iterations), got.work, len(want.Iterations), want.work)
		}
		if got.partnerJumps > want.partnerJumps {
			t.Errorf("%s: %d far jumps between the partners of consecutive KB1 nodes, more than the %d without renumbering", c.name, got.partnerJumps, want.partnerJumps)
		}
		t.Logf("%s: far jumps between consecutive partners %d, %d without renumbering", c.name, got.partnerJumps, want.partnerJumps)
	}
}

func nearScore(x, y float64) bool {
	return math.Abs(x-y) <= 1e-12*max(1, math.Abs(x), math.Abs(y))
}
