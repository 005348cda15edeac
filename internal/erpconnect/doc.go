// Package erpconnect drafts a sync mapping from an ERP's database, for
// `munshi connect`: it reads the catalog and a sample of every table
// through a Catalog (an *erp.Source), judges what each column's values
// are (Indian mobiles, rupee amounts, whole quantities, GST rates, dates,
// SKU-like codes, names, payment modes, status codes) and how tables tie
// together (a column whose values are another table's keys, exactly or
// only when case is ignored; detail lines that add up to a header's
// total; a company column most tables carry; a column that says when a
// row last changed), and places each of Munshi's entities on a table and
// each field on a column, by name (vendors' abbreviations read as words),
// values, declared type and those ties.
//
// The draft (an erpsync.Mapping) runs as it stands: every uncertain field
// still holds its best candidate, with a review note saying why it is
// uncertain; a field the model suggested is marked so. Draft keeps the
// ranked candidates with their evidence and writes a report for the
// person who reviews it. The same database gives the same draft, byte for
// byte.
//
// It only reads the source, a sample and a few aggregates of it: never a
// large table in full. It must not import the store, and leaves the
// model's wiring to its caller: Options.Suggest is only ever shown column
// names and masked values.
package erpconnect
