// Package erp is the adapter to an ERP's own database: read-only
// connections to SQL Server, PostgreSQL, MySQL and SQLite through
// database/sql, chosen by the DSN's scheme.
//
// A vendor's system is slow and busy during business hours, so a Source is
// careful with it: every query runs in a read-only transaction, under a
// statement timeout the engine enforces too where it can, on a small pool,
// and no more than Options.Parallel queries run at once (one by default).
// A query is passed to the driver as the mapping wrote it, in the source's
// own dialect; only the watermark parameter is bound.
//
// It also reads the source's catalog (tables, columns, keys, row counts)
// and samples rows, for schema discovery. Errors never hold the password.
package erp
