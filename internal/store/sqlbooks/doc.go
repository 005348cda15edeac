// Package sqlbooks keeps Munshi's books in SQL: the catalog, customers,
// users, orders and their lines, payments, the inbound message record
// (MessageSid dedupe), the outbox and the audit log. One implementation
// serves two engines: SQLite through mattn/go-sqlite3, the embedded
// default, and PostgreSQL through jackc/pgx, for several instances behind
// one number. Queries are written once with ? placeholders; where the
// engines spell a thing differently (JSON, dates, string aggregation, the
// order rows were written in) the engine gives its spelling.
//
// Each engine's schema lives in migrations/<engine>/ and is embedded in
// the binary; Open applies what is missing. Every query is parameterized.
// Money is integer paise and times are UTC text in one fixed-width format
// that sorts, in both engines.
//
// What an ERP sync writes (sync.go) is each entity in one transaction with
// its state; once the ERP owns a figure (stock, dues), what the chat
// records against it moves it at once and is kept as provisional until the
// ERP's rows show the same event, which settles it in the same
// transaction as those rows (provisional.go). A chat payment the ERP also
// holds stays one row of payments, carrying the ERP's key.
//
// Small writes of concurrent callers share one transaction (group.go).
// On SQLite one connection writes, four read, and a fifth copies the
// write-ahead log back into the database in the background
// (checkpoint.go), so that no commit waits for a checkpoint; glibc is
// told to keep SQLite's freed memory (malloc_linux.go).
//
// The outbox keeps each effect's kind, recipient and payload as given:
// the store never looks inside a payload or knows what a kind means.
// AddHistory of a large batch is a bulk load with a larger page cache.
//
// *Store implements store.Store and passes storetest.Run against both
// engines (see TestConformance); only internal/store opens it. It must not
// know about HTTP, Twilio or prompts, and must not import internal/store.
package sqlbooks
