//go:build !linux

package align

import "unsafe"

// adviseHuge does nothing where the kernel takes no transparent huge page advice.
func adviseHuge(unsafe.Pointer, uintptr) {}
