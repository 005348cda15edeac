// Package catalogtest generates large catalogs and customer lists for the
// benchmarks and tests of building the router's vocabulary and matching
// names against it, and for reportstest's generated books: a few principal
// brands holding a large share of the SKUs beside thousands of small ones,
// kind words shared by every brand, sizes written several ways, aliases in
// English, Hinglish and Devanagari repeated across products, and customers
// with shared surnames and business words. Messages name the generated
// products and customers the way sales staff and owners write.
//
// For benchmarks it meters processor time and the peak heap, and reads
// the catalog sizes to run at from the -skus flag (go test -bench …
// -skus 10000,20000,40000,100000).
//
// It is for tests and benchmarks only. It imports nothing of Munshi but
// the domain, so that every package's tests may use it.
package catalogtest
