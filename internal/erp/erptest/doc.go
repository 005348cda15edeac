// Package erptest gives ERP source tests a throw-away MySQL database on
// the test server (MUNSHI_TEST_MYSQL_URL, default root on 127.0.0.1:3306).
// It is for tests only.
package erptest
