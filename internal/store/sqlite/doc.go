// Package sqlite keeps Munshi's books in SQLite through mattn/go-sqlite3:
// the catalog, customers, users, orders and their lines, payments, the inbound
// message record (MessageSid dedupe), the outbox and the audit log.
//
// The schema lives in migrations/ and is embedded in the binary; Open applies
// what is missing. Every query is parameterized. Money is integer paise and
// times are UTC text that sorts.
//
// The outbox keeps each effect's kind, recipient and payload as given:
// the store never looks inside a payload or knows what a kind means.
// AddHistory of a large batch is a bulk load with a larger page cache.
//
// *Store implements store.Store and passes storetest.Run (see
// TestConformance); only internal/store opens it. It must not know about
// HTTP, Twilio or prompts, and must not import internal/store.
package sqlite
