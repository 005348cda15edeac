// Package mail sends Munshi's email (order notifications to the accounts
// team) over SMTP with wneessen/go-mail, configured by one SMTP_URL:
// smtp://user:pass@host:587 (STARTTLS when the server offers it) or
// smtps://user:pass@host:465 (TLS from the start). It is an outbox sender;
// go-mail's types stop here.
//
// A failed send is an *Error that says whether it is held (the set-up:
// authentication, TLS, the sender address; every mail fails alike until it
// is put right), permanent (the server refuses this recipient or this
// mail) or transient (the network, a 4xx "try later").
package mail
