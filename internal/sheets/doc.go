// Package sheets adapts Google Sheets (the API v4, through
// google.golang.org/api/sheets/v4) to Munshi: the office's spreadsheet
// (MUNSHI_SHEETS_ID) is where every order is logged and where the catalog
// and the customers may be kept. Google's types stop here: callers see
// domain values, csvimport tables and outbox results.
//
//   - OrderLog is the outbox's sender of domain.EffectSheets. Each order
//     is written to the Orders tab (made, with its header row, when it is
//     missing), one row per line; many orders go in one request. Writes
//     are idempotent: a batch reads the tab's order, line and status
//     columns first, rewrites the rows of lines already there and appends
//     only the lines that are not, so a retry never duplicates a row, even
//     after an append whose answer was lost, and a later state (delivered,
//     cancelled) updates the order's rows. Values go in RAW: a name that
//     starts with "=" stays text.
//   - Client.Catalog and Client.Customers read a tab with the columns of
//     the catalog and customers files, by the files' rules
//     (csvimport.ReadCatalogTable): `munshi import … --sheet TAB`. Sync
//     pulls the Catalog and Customers tabs on a schedule into the books
//     through intake, keeping what Munshi moved itself (stock, dues), and
//     tells the owners once about a tab it cannot take.
//   - Every request waits its turn under a rate limit below Google's
//     quota, and none goes while Google has asked to wait (429,
//     Retry-After). A failure is an *Error the outbox reads: held while the
//     spreadsheet refuses Munshi (403: not shared with the service
//     account; 401; 404), transient otherwise, with the wait Google asked
//     for.
//
// SHEETS_API_URL sends every request to another host (a fake in tests,
// sheetstest) without credentials.
//
// It imports domain, outbox (the sender's contract), intake and csvimport
// (the one way records come into the books) and audit (the kind of an
// entry); it must not import cmd, a store engine or another adapter.
package sheets
