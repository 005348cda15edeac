package excel

import (
	"context"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// generatedLines streams n order lines without holding them: 40 products,
// 300 customers, three lines an order, as the books would page them out.
func generatedLines(n int) func(yield func(SaleLine, error) bool) {
	type product struct {
		sku, name, unit string
		rate            domain.Paise
		gst             domain.GSTRate
	}
	products := make([]product, 40)
	for i := range products {
		products[i] = product{"SKU" + strconv.Itoa(100+i), "Product " + strconv.Itoa(i) + " 500ml", "bottle",
			domain.Paise(1500 + 137*i), domain.GSTRate([]int{500, 1200, 1800}[i%3])}
	}
	customers := make([][2]string, 300)
	for i := range customers {
		customers[i] = [2]string{"C" + strconv.Itoa(1000+i), "Customer " + strconv.Itoa(i) + " Traders"}
	}
	start := time.Date(2026, 1, 1, 9, 0, 0, 0, kolkata)
	return func(yield func(SaleLine, error) bool) {
		for i := range n {
			p, c := products[(i*7)%len(products)], customers[(i/3)%len(customers)]
			qty := int64(1 + i%240)
			amount := p.rate * domain.Paise(qty)
			l := SaleLine{Date: start.Add(time.Duration(i/3) * time.Minute), OrderID: "ORD-" + strconv.Itoa(i/3),
				CustomerID: c[0], Customer: c[1], SKU: p.sku, Product: p.name, Qty: qty, Unit: p.unit,
				Rate: p.rate, Amount: amount, GSTRate: p.gst, GST: amount * domain.Paise(p.gst) / 10000}
			if !yield(l, nil) {
				return
			}
		}
	}
}

// counter counts the bytes of a file without keeping them.
type counter struct{ n int64 }

func (c *counter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// HeapPeak samples the heap in use (live and not yet swept objects plus
// free space in spans in use, as runtime.MemStats.HeapInuse) every
// millisecond until stopped, and returns the highest reading.
func HeapPeak() (stop func() uint64) {
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	var (
		peak uint64
		wg   sync.WaitGroup
	)
	done := make(chan struct{})
	read := func() {
		metrics.Read(samples)
		if v := samples[0].Value.Uint64() + samples[1].Value.Uint64(); v > peak {
			peak = v
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			read()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		read()
		return peak
	}
}

// BenchmarkSalesExport is the writer alone: the sales export of 10,000 and
// of 500,000 generated order lines (plus its two summary sheets and the
// About sheet) written to a byte counter, with no books, no cap and no
// file kept. It reports the time per line, the peak heap in use during
// the write and the file's size. The export as the chat makes it, from
// the books into a file held for its link, is BenchmarkSalesExcelFromBooks.
func BenchmarkSalesExport(b *testing.B) {
	for _, n := range []int{10_000, 500_000} {
		b.Run(strconv.Itoa(n)+"-lines", func(b *testing.B) {
			b.ReportAllocs()
			runtime.GC()
			stop := HeapPeak()
			var size int64
			for b.Loop() {
				out := &counter{}
				if err := Write(context.Background(), out, Sales(About{MadeAt: madeAt}, generatedLines(n))); err != nil {
					b.Fatal(err)
				}
				size = out.n
			}
			peak := stop()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/line")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(size)/(1<<20), "file-MiB")
		})
	}
}
