// Package metrics declares Munshi's Prometheus metrics on a registry of its
// own (so tests can run several instances in one process) and serves them.
package metrics
