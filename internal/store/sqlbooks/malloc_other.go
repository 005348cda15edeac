//go:build !linux || !cgo

package sqlbooks

// keepFreedMemory is glibc's tuning (malloc_linux.go); elsewhere the C
// library's defaults stand.
func keepFreedMemory() {}
