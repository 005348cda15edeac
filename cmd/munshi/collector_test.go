package main

import (
	"runtime/debug"
	"testing"
)

// The server's collector settings apply unless GOGC or GOMEMLIMIT say
// otherwise.
func TestTuneCollector(t *testing.T) {
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) })

	debug.SetMemoryLimit(1 << 62)
	tuneCollector(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != serveGCPercent {
		t.Errorf("GC percent %d with GOGC unset, want %d", got, serveGCPercent)
	}
	if got := debug.SetMemoryLimit(1 << 62); got != serveMemoryLimit {
		t.Errorf("memory limit %d with GOMEMLIMIT unset, want %d", got, serveMemoryLimit)
	}

	set := map[string]string{"GOGC": "150", "GOMEMLIMIT": "2GiB"}
	tuneCollector(func(k string) string { return set[k] })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent %d with GOGC set, want it left at 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<62 {
		t.Errorf("memory limit %d with GOMEMLIMIT set, want it left alone", got)
	}
}
