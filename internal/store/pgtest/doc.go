// Package pgtest gives a test its own PostgreSQL database, dropped when
// the test ends, on the server MUNSHI_TEST_POSTGRES_URL names (by default
// the local one, 127.0.0.1:5432 as user postgres). Where no server
// answers a test skips, except in CI (CI=true), where it fails: .ci/run
// starts PostgreSQL, so a missing one is a broken machine, not a reason
// to test less.
//
// It is for tests only.
package pgtest
