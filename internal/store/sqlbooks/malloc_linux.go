//go:build linux && cgo

package sqlbooks

/*
#include <malloc.h>

// keep_freed_memory has the C library keep up to limit bytes of freed
// memory for the next allocation instead of handing it back at once.
static void keep_freed_memory(int limit) {
#ifdef M_TRIM_THRESHOLD
	mallopt(M_TRIM_THRESHOLD, limit);
#endif
}
*/
import "C"

import "sync"

// freedMemoryKept is how much freed C memory SQLite's allocations may
// leave with the C library before it is handed back to the system.
const freedMemoryKept = 8 << 20

var keepFreedOnce sync.Once

// keepFreedMemory stops glibc from returning SQLite's freed memory to the
// system after every query. Each query that groups, counts distinct or
// sorts builds temporary b-trees whose page caches are allocated and
// freed whole (about 90 KB); past glibc's default trim threshold of
// 128 KB every free gave the memory back (madvise or brk) and the next
// query faulted it in again, each round a TLB flush on every core. Under
// a burst of owners' questions that made a week's sales three times
// slower than on a quiet database.
func keepFreedMemory() {
	keepFreedOnce.Do(func() { C.keep_freed_memory(freedMemoryKept) })
}
