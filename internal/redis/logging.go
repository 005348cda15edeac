package redis

import (
	"context"
	"fmt"
	"log/slog"

	goredis "github.com/redis/go-redis/v9"
)

// slogPrinter sends go-redis's own messages (dial failures while Redis is
// down) to Munshi's structured log at debug level: the resilient memory
// store already logs and counts the outage once.
type slogPrinter struct{ logger *slog.Logger }

func (p slogPrinter) Printf(ctx context.Context, format string, v ...any) {
	p.logger.DebugContext(ctx, "redis: "+fmt.Sprintf(format, v...))
}

// RouteLogs sends go-redis's process-wide log to logger.
func RouteLogs(logger *slog.Logger) {
	if logger != nil {
		goredis.SetLogger(slogPrinter{logger})
	}
}
