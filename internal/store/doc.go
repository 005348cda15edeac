// Package store is the one seam between Munshi and the database that keeps
// its books. Store is the whole port the program needs, composed of the
// narrow interfaces its consumers declare (orders.Books, reports.Books, digest.Books,
// the webhook's Inbox and StatusRecorder, outbox.Store, audit.Appender,
// conversation.Refusals, demo.Books) and of what the commands use for
// imports, catalog reloads, history, retention, health and operators'
// listings. Open picks the backend from the database name: a file path,
// file: or sqlite: is SQLite, postgres:// or postgresql:// is
// PostgreSQL, both the one implementation in internal/store/sqlbooks.
//
// Every backend must pass storetest.Run, which also states the business
// rules a backend must keep under concurrent commits.
//
// Nothing outside internal/store imports a backend package; the backends
// must not import this package (it imports them).
package store
