// Package proxytest is a TCP proxy that a test stops and starts again on
// the same address: a server whose network goes away and comes back
// (Redis, an ERP's database) without touching the server itself.
//
// It is for tests only.
package proxytest
