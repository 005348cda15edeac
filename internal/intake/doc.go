// Package intake takes records from outside into the books, whatever
// their source: a CSV file today (internal/csvimport), a Google Sheet's tab
// or an ERP's table next. A source reads its own format into rows; intake
// owns the rest of the way in:
//
//   - validation against the books: history rows must name customers and
//     SKUs already there (found whatever their case, kept in the books'
//     spelling), order ids and payment references must be fit to keep;
//   - building orders: rows of one order_id form one order and must agree
//     on its date, customer, status and placer; lines are priced one by
//     one as a tax invoice is, and no line or order may exceed what any
//     business could owe;
//   - one transaction through the store seam, all or nothing: catalog,
//     customers and users upserted by key, history imported idempotently
//     (a second import of the same rows changes nothing);
//   - the refusal report: a Refusal names every bad row by its line (a
//     source's line, row or record number) and says why, and nothing is
//     written; a clash with what Munshi recorded itself is named the same
//     way;
//   - the audit entry of each import.
//
// It imports internal/domain and internal/audit (for the kind of its
// entries) only, and reaches the books through the
// narrow Books interface it declares. It must not import a source (csvimport,
// a Sheets or ERP adapter: they import intake), cmd, or a store engine.
package intake
