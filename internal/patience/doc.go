// Package patience holds the waits Munshi's tests share: poll until a
// condition holds, or run a call that must return, each with one generous
// Limit that only a hang reaches. It never measures speed: how fast
// something is belongs in a benchmark, not in a test's verdict.
//
// It imports only the standard library, so that any test may use it.
package patience
