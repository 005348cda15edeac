// Package sqlite keeps Munshi's books in SQLite through mattn/go-sqlite3:
// the catalog, customers, users, orders and their lines, payments, the inbound
// message record (MessageSid dedupe), the outbox and the audit log.
//
// The schema lives in migrations/ and is embedded in the binary; Open applies
// what is missing. Every query is parameterized. Money is integer paise and
// times are UTC text that sorts.
//
// It must not know about HTTP, Twilio or prompts.
package sqlite
