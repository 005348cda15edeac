// Package config declares every environment variable Munshi reads, once,
// with its default and validation. Validate reports each incomplete or
// malformed combination in its own clear message at start-up.
//
// It must not import any other Munshi package but domain.
package config
