// Package csvimport is the CSV source of internal/intake: it reads the
// catalog, customer and user CSV files of the contract into domain values,
// and the order and payment history files into intake's rows. It validates
// every row's fields and reports each bad one with its line number and
// reason, so that the whole file is refused rather than half imported.
//
// Besides the shape of each column it refuses what would let a file
// mislead people or the rules later: text that does not show as what it is
// (control characters, line breaks inside a field, direction overrides,
// invisible characters), money and stock below zero or beyond any
// business, and SKUs, names and aliases that people send as replies
// ("ok", "haan", "cancel", "help", "more"). Which words are replies it asks
// intent and reports, the code that reads those replies.
//
// History rows are read, not judged: money exactly to the paisa, dates in
// the business's time zone, each row with its line, and what could not be
// read in it. Whether a row names a customer or SKU of the books, how rows
// form orders and what the books refuse is intake's, the same for every
// source; a history file is refused with one report listing both.
//
// It must not write to the store itself.
package csvimport
