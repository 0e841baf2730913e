//go:build linux

package align

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page on the platforms Go supports with
// THP (x86-64, arm64 with 4 KiB base pages).
const hugePage = 2 << 20

// adviseHuge asks the kernel to back the 2 MiB-aligned interior of the size bytes at p
// with transparent huge pages: MADV_HUGEPAGE makes the pages not yet touched fault in
// as huge pages even when THP is in "madvise" mode, and MADV_COLLAPSE (Linux 6.1)
// turns those Go already touched (memory reused from freed objects, or zeroed) into
// huge pages at once instead of waiting for khugepaged. Both are advice: an error
// (an older kernel, THP "never", no free huge page) leaves the memory as it was, and
// neither changes its contents.
func adviseHuge(p unsafe.Pointer, size uintptr) {
	start := (uintptr(p) + hugePage - 1) &^ (hugePage - 1)
	end := (uintptr(p) + size) &^ (hugePage - 1)
	if end <= start {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(p, start-uintptr(p))), end-start)
	if unix.Madvise(b, unix.MADV_HUGEPAGE) != nil {
		return
	}
	_ = unix.Madvise(b, unix.MADV_COLLAPSE)
}
