// Package demo seeds an empty database with a believable FMCG distributor:
// the catalog, customers and users in data/ (read through the same CSV
// import an operator uses) and a few months of generated sales history, so
// that `munshi serve --demo` has something to talk about.
//
// It must not be used outside the demo and tests.
package demo
