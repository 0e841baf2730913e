package align

import "unsafe"

// The aligner's largest tables (the views' edge arenas and per-node spans, the
// equalities and anchors by node, a worker's candidates by KB2 node) are read at random,
// one node after another, and at a few million nodes they span gigabytes: with 4 KiB
// pages nearly every such read also misses the TLB. The helpers below allocate them as
// ordinary Go slices and ask the kernel to back their memory with transparent huge
// pages (2 MiB) where it can (Linux: madvise MADV_HUGEPAGE, then MADV_COLLAPSE for
// pages already present; see hugepage_linux.go), whatever the system's THP setting
// short of "never". Elsewhere they are plain make and append. The advice changes no
// byte of the data; decision record 2026-11-27-paris-scale-work-counts, "Sixth session".

// hugeMin is the size in bytes from which a table is advised: below it the table holds
// at most one aligned 2 MiB page.
const hugeMin = 4 << 20

// hugeMake returns make([]T, n, c) (c ≥ n), its memory advised for huge pages when it
// is large.
func hugeMake[T any](n, c int) []T {
	s := make([]T, n, c)
	adviseSlice(s)
	return s
}

// hugeGrow returns s with room for at least extra more elements, as slices.Grow, the
// new memory advised for huge pages when it is large. It grows by at least a quarter,
// as append does for large slices, so that appending in a loop stays linear.
func hugeGrow[T any](s []T, extra int) []T {
	if cap(s)-len(s) >= extra {
		return s
	}
	c := max(len(s)+extra, cap(s)+cap(s)/4, 64)
	t := make([]T, len(s), c)
	copy(t, s)
	adviseSlice(t)
	return t
}

// hugeAppend appends x to s, growing it with hugeGrow when it is full.
func hugeAppend[T any](s []T, x T) []T {
	if len(s) == cap(s) {
		s = hugeGrow(s, 1)
	}
	return append(s, x)
}

// adviseSlice advises the whole capacity of s when it spans at least hugeMin bytes.
func adviseSlice[T any](s []T) {
	var zero T
	size := uintptr(cap(s)) * unsafe.Sizeof(zero)
	if size < hugeMin {
		return
	}
	adviseHuge(unsafe.Pointer(unsafe.SliceData(s[:cap(s)])), size)
}
