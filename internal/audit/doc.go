// Package audit writes Munshi's audit log: every inbound message, routing
// decision, refusal and outbound message, with secrets redacted before
// anything is stored. Redaction is by key (token, password, key…), by the
// configured secret values, and by the shapes of well-known credentials
// (API keys, bearer and Basic headers, passwords in URLs, and SMTP AUTH
// exchanges: PLAIN, LOGIN, XOAUTH2 responses echoed in a server's error).
//
// While a message is answered its context holds the entries that
// describe it (Hold): they are committed with its reply, or with the first
// change it makes to the books, instead of each in a transaction of its
// own, and never after an entry recorded later.
//
// It must not decide anything; it only records.
package audit
