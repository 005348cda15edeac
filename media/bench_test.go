package media_test

import (
	"testing"

	"github.com/munshi/munshi/media"
	"github.com/munshi/munshi/media/mediatest"
)

// BenchmarkServeInProcess is GET /media of a 200 KB chart from the
// in-process store, through the handler over loopback HTTP.
func BenchmarkServeInProcess(b *testing.B) {
	mediatest.BenchmarkServe(b, media.NewInProcess(media.Options{}))
}
