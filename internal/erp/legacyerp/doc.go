// Package legacyerp builds, for tests, a database made to look like a
// twenty-year-old custom ERP a vendor wrote: five companies in one
// database, cryptic and misspelt column names, one company's name in two
// casings, phones in every format, codes and names with stray spaces, a
// backup table and an audit trail that are not what they seem. It builds
// it on PostgreSQL, SQLite and MySQL/MariaDB from the vendor's script
// (schema_*.sql) and a seeded generator, and carries the reviewed mapping
// (mapping_*.yaml) that syncs one of the companies into Munshi.
//
// Truth computes, with plain SQL on the ERP and never through Munshi, the
// figures a test compares Munshi's answers with; the changes in change.go
// move the ERP the way its users do (stock counted, a late order, a
// payment, an item deleted, a row broken).
//
// It is for tests only. It imports no database driver (the caller opens
// the database) and nothing from Munshi.
package legacyerp
