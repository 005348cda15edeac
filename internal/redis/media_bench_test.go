package redis_test

import (
	"testing"

	"github.com/munshi/munshi/internal/redis"
	"github.com/munshi/munshi/internal/redis/redistest"
	"github.com/munshi/munshi/media/mediatest"
)

// BenchmarkServeRedis is GET /media of a 200 KB chart from Redis on
// loopback, through the handler over loopback HTTP.
func BenchmarkServeRedis(b *testing.B) {
	mediatest.BenchmarkServe(b, newMediaStore(b, redistest.Prefix(b, redistest.Need(b)), redis.MediaOptions{}))
}
