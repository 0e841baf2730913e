//go:build unix

package ontology

import "syscall"

// mapBytes returns n zero bytes outside the Go heap: an anonymous private mapping. The
// garbage collector does not count them toward its heap goal (so the sort buffers do
// not double the heap the collector lets garbage grow to), pages become resident only
// when written, and unmapBytes returns them to the system at once.
// The mapped bytes are counted against the running loads' budgets (noteMapped).
func mapBytes(n int) ([]byte, error) {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err == nil {
		noteMapped(int64(len(b)))
	}
	return b, err
}

func unmapBytes(b []byte) error {
	err := syscall.Munmap(b)
	if err == nil {
		noteMapped(-int64(len(b)))
	}
	return err
}
