package align

import (
	"slices"
	"testing"
)

// TestHugeSlices checks that the huge-page helpers behave as make, slices.Grow and
// append on tables large enough to be advised (the advice must not change a byte).
func TestHugeSlices(t *testing.T) {
	const n = 3 << 20 // 12 MiB of int32: advised
	s := hugeMake[int32](n, n)
	if len(s) != n || cap(s) != n {
		t.Fatalf("hugeMake(%d, %d): len %d cap %d", n, n, len(s), cap(s))
	}
	for i, x := range s {
		if x != 0 {
			t.Fatalf("hugeMake: element %d is %d, not zero", i, x)
		}
	}
	var want []int32
	var got []int32
	for i := range int32(n + 1000) {
		want = append(want, i*7)
		got = hugeAppend(got, i*7)
	}
	if !slices.Equal(got, want) {
		t.Fatal("hugeAppend: the slice differs from append's")
	}
	g := hugeGrow(got, 5<<20)
	if cap(g)-len(g) < 5<<20 || !slices.Equal(g, want) {
		t.Fatalf("hugeGrow: cap %d len %d (want room for %d), contents equal %v", cap(g), len(g), 5<<20, slices.Equal(g, want))
	}
	if h := hugeGrow(g, 10); &h[0] != &g[0] {
		t.Fatal("hugeGrow reallocated a slice that had room")
	}
}
