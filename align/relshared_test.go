package align

import (
	"reflect"
	"testing"
)

// TestSharedEvidenceAhead checks that computing the evidence of shared literals' facts
// ahead, in the order of their ends (sharedEvidence), changes nothing in the result,
// bit for bit, nor in the work counted, against computing it literal by literal; on a
// replica, where values kept in every copy are shared by many entities, and on the
// OAEI pairs, with joins of one to three steps.
func TestSharedEvidenceAhead(t *testing.T) {
	r1, r2 := persons1Replica(t, 2)
	p1, p2 := loadPair(t, "Persons1/person11.nt", "Persons1/person12.nt")
	s1, s2 := loadPair(t, "Restaurants/restaurant1.nt", "Restaurants/restaurant2.nt")
	joins := func(n int) Options {
		o := DefaultOptions()
		o.JoinLength, o.JoinSum = n, n+1
		return o
	}
	for _, c := range []struct {
		name     string
		kb1, kb2 KB
		opts     Options
	}{
		{"Persons1 ×2", r1, r2, DefaultOptions()},
		{"Persons1 ×2 reversed", r2, r1, DefaultOptions()},
		{"Persons1 joins 3", p1, p2, joins(3)},
		{"Persons1 joins 1", p1, p2, joins(1)},
		{"Restaurants", s1, s2, DefaultOptions()},
		{"Restaurants reversed joins 3", s2, s1, joins(3)},
	} {
		got, err := Align(t.Context(), c.kb1, c.kb2, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		old := c.opts
		old.noSharedAhead = true
		want, err := Align(t.Context(), c.kb1, c.kb2, old)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Instances, want.Instances) {
			t.Errorf("%s: %d instance matches, %d literal by literal; first difference %s", c.name, len(got.Instances), len(want.Instances), firstInstanceDiff(got.Instances, want.Instances))
		}
		if !reflect.DeepEqual(got.Relations, want.Relations) || !reflect.DeepEqual(got.Classes, want.Classes) {
			t.Errorf("%s: relation or class matches differ from those computed literal by literal", c.name)
		}
		for _, r := range []*Result{got, want} {
			for i := range r.Iterations {
				r.Iterations[i].Elapsed = 0
			}
		}
		if !reflect.DeepEqual(got.Iterations, want.Iterations) {
			t.Errorf("%s: iterations differ from those computed literal by literal", c.name)
		}
		if got.work != want.work {
			t.Errorf("%s: work %+v, literal by literal %+v", c.name, got.work, want.work)
		}
	}
}
