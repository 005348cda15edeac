package mediatest

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/munshi/munshi/media"
)

// BenchChart is the chart the /media benchmarks serve: a 258×258 PNG of
// noise, about 200 KB, the size of a sales trend Twilio fetches.
func BenchChart() []byte { return PNG(258, 258) }

// BenchmarkServe measures GET /media/{id}/{name} of BenchChart through the
// real Handler over loopback HTTP, one request at a time, from s. It
// reports MB/s (b.SetBytes) and req/s.
func BenchmarkServe(b *testing.B, s media.Store) {
	body := BenchChart()
	id, err := s.Put(context.Background(), media.File{Name: "sales-trend.png", Body: body})
	if err != nil {
		b.Fatal(err)
	}
	mux := http.NewServeMux()
	(&media.Handler{Store: s, Logger: slog.New(slog.DiscardHandler)}).Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	client, link := srv.Client(), media.URL(srv.URL, id, "sales-trend.png")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	requests := 0
	for b.Loop() {
		resp, err := client.Get(link)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || n != int64(len(body)) {
			b.Fatalf("GET: %d, %d bytes, %v", resp.StatusCode, n, err)
		}
		requests++
	}
	b.ReportMetric(float64(requests)/b.Elapsed().Seconds(), "req/s")
}
