package ontology

import (
	"fmt"
	"unsafe"
)

// The loader's large buffers (sort buffers and in-memory runs) hold no pointers and are
// allocated with mapBytes, outside the Go heap; their total is bounded by
// LoadOptions.SortMemoryMB.

// allocRecords returns a slice of n zero records outside the Go heap. R must hold no
// pointers.
func allocRecords[R any](n int) ([]R, error) {
	if n <= 0 {
		return nil, nil
	}
	var r R
	b, err := mapBytes(n * int(unsafe.Sizeof(r)))
	if err != nil {
		return nil, fmt.Errorf("ontology: allocate %d MiB of sort memory: %w", n*int(unsafe.Sizeof(r))>>20, err)
	}
	return unsafe.Slice((*R)(unsafe.Pointer(unsafe.SliceData(b))), n), nil
}

// freeRecords releases a slice made by allocRecords (any reslice that keeps its start).
// Nothing may use it afterwards.
func freeRecords[R any](rs []R) {
	if cap(rs) == 0 {
		return
	}
	var r R
	_ = unmapBytes(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(rs))), cap(rs)*int(unsafe.Sizeof(r))))
}

// recordBytes views records as bytes (native byte order), for writing and reading runs.
func recordBytes[R any](rs []R) []byte {
	if len(rs) == 0 {
		return nil
	}
	var r R
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(rs))), len(rs)*int(unsafe.Sizeof(r)))
}
