package main

import (
	"context"
	"time"

	"github.com/munshi/munshi/internal/redis"
	"github.com/munshi/munshi/memory"
)

// newMemory keeps conversations in Redis when REDIS_URL is set, behind a
// wrapper that answers without memory while Redis is down, else in this
// process.
func (m *Main) newMemory() error {
	if m.Config.RedisURL == "" {
		m.Memory = memory.NewInProcess(memory.Options{})
		return nil
	}
	redis.RouteLogs(m.Logger)
	rs, err := redis.New(m.Config.RedisURL, m.Config.RedisPrefix, redis.Options{Logger: m.Logger})
	if err != nil {
		return err
	}
	m.redis = rs
	// Memory is resilient and Munshi starts without it, but an operator
	// should not have to find a wrong REDIS_URL in /readyz.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	if err := rs.Ping(ctx); err != nil {
		m.Logger.Warn("REDIS_URL does not answer: answering without conversation memory until it does",
			"err", m.Audit.RedactString(err.Error()))
	}
	cancel()
	resilient := memory.NewResilient(rs, memory.ResilientOptions{Logger: m.Logger, OnFailure: func(op string, _ error) {
		m.Metrics.MemoryFailures.WithLabelValues(op).Inc()
	}})
	m.Metrics.WatchMemory(resilient.Degraded)
	m.Memory = resilient
	return nil
}
