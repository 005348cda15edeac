// Package csvimport reads the catalog, customer and user CSV files of the
// contract into domain values. It validates every row and reports each bad
// one with its line number and reason, so that the caller can refuse the
// whole file rather than import half of it.
//
// It must not write to the store itself.
package csvimport
