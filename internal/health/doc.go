// Package health serves /healthz (the process is up) and /readyz (every
// dependency answers: the database; Redis when configured; and each kind of
// outbound message, which fails while its sending is held), reporting each
// check by name and why it fails, so an operator sees what is wrong. A
// degraded check leaves the service ready (200): Munshi still answers.
package health
