// Package csvimport reads the catalog, customer and user CSV files of the
// contract into domain values. It validates every row and reports each bad
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
// It must not write to the store itself.
package csvimport
