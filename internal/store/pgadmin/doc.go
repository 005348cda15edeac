// Package pgadmin creates and drops PostgreSQL databases, connecting to
// the server's postgres database to do it: what a backup, a test's
// throw-away database and an operator's first start need before the books
// exist. Errors never repeat the address, which may hold a password.
package pgadmin
