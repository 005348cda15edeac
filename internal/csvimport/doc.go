// Package csvimport reads the catalog, customer and user CSV files of the
// contract, and the order and payment history files, into domain values. It validates every row and reports each bad
// one with its line number and reason, so that the caller can refuse the
// whole file rather than import half of it.
//
// Besides the shape of each column it refuses what would let a file
// mislead people or the rules later: text that does not show as what it is
// (control characters, line breaks inside a field, direction overrides,
// invisible characters), money and stock below zero or beyond any
// business, and SKUs, names and aliases that people send as replies
// ("ok", "haan", "cancel", "help", "more"). Which words are replies it asks
// intent and reports, the code that reads those replies.
//
// History rows must name customers and SKUs already in the books (the
// caller passes their keys as Books): rows of one order_id form one order
// and must agree on its date, customer, status and placer; money is read
// exactly to the paisa and priced line by line as a tax invoice is; dates
// are read in the business's time zone. The readers return the line of
// each order and payment, so that a row the store refuses later can still
// be named by its line.
//
// It must not write to the store itself.
package csvimport
