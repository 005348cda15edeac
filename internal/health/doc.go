// Package health serves /healthz (the process is up) and /readyz (every
// dependency answers: the database, and Redis when configured), reporting
// each check by name so an operator sees what is wrong.
package health
