// Package audit writes Munshi's audit log: every inbound message, routing
// decision, refusal and outbound message, with secrets redacted before
// anything is stored. Redaction is by key (token, password, key…), by the
// configured secret values, and by the shapes of well-known credentials
// (API keys, bearer and Basic headers, passwords in URLs, and SMTP AUTH
// exchanges: PLAIN, LOGIN, XOAUTH2 responses echoed in a server's error).
//
// It must not decide anything; it only records.
package audit
