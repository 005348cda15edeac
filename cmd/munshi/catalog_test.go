package main

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
)

// reloadAllocations is what one catalog reload allocates on a database
// holding a generated catalog of that many SKUs: bytes and objects.
func reloadAllocations(t *testing.T, skus int) (bytes, objects uint64) {
	c := largeCatalogOf(t, filepath.Join(t.TempDir(), fmt.Sprint(skus)), skus)
	m := openLarge(t, c)
	defer m.Close()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := m.Catalog.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	checkLastProduct(t, m, c)
	return after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs
}

// A reload of twice the catalog (the same SKUs and as many again, a
// customer for every five) allocates about twice as much: reading the
// books, building the router and the order parser all grow with the
// catalog, none with its square.
func TestCatalogReloadIsLinear(t *testing.T) {
	const skus = 4000
	b1, o1 := reloadAllocations(t, skus)
	b2, o2 := reloadAllocations(t, 2*skus)
	t.Logf("%d SKUs: %d B in %d objects; %d SKUs: %d B in %d objects", skus, b1, o1, 2*skus, b2, o2)
	if r := float64(b2) / float64(b1); r > 2.4 {
		t.Errorf("twice the catalog allocates %.2f times the bytes", r)
	}
	if r := float64(o2) / float64(o1); r > 2.4 {
		t.Errorf("twice the catalog allocates %.2f times the objects", r)
	}
}
