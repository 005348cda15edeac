package catalogtest

import (
	"flag"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Meter measures what a benchmark's iterations cost beyond wall time: the
// processor time of the whole process (user and system, the garbage
// collector's included), which a busy shared machine inflates far less
// than wall time, and the peak of the heap while they ran.
type Meter struct {
	cpu  time.Duration
	peak uint64
	stop chan struct{}
	done chan struct{}
}

// heapMetric is the bytes of live and not yet swept heap objects.
const heapMetric = "/memory/classes/heap/objects:bytes"

// StartMeter starts measuring; call it right before the timed loop.
func StartMeter() *Meter {
	m := &Meter{cpu: cpuTime(), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(m.done)
		sample := []metrics.Sample{{Name: heapMetric}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			m.peak = max(m.peak, sample[0].Value.Uint64())
			select {
			case <-m.stop:
				return
			case <-t.C:
			}
		}
	}()
	return m
}

// Report stops measuring and reports processor milliseconds per iteration
// and the peak heap in MB.
func (m *Meter) Report(b *testing.B) {
	cpu := cpuTime() - m.cpu
	close(m.stop)
	<-m.done
	if b.N > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
	}
	b.ReportMetric(float64(m.peak)/(1<<20), "peak-heap-MB")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

var skus = flag.String("skus", "10000,100000", "the catalog sizes, in SKUs, of the large-catalog benchmarks (comma-separated)")

// BenchSizes are the catalog sizes the large-catalog benchmarks run at:
// 10,000 and 100,000 SKUs unless -skus says otherwise.
func BenchSizes() []int {
	var out []int
	for _, f := range strings.Split(*skus, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			panic("catalogtest: -skus " + *skus + " is not a list of sizes")
		}
		out = append(out, n)
	}
	return out
}

var shared sync.Map // SKUs → Books

// Shared returns the books of that many SKUs, with their customers, that
// every benchmark of a process uses: generated once, with one seed.
func Shared(skus int) Books {
	if b, ok := shared.Load(skus); ok {
		return b.(Books)
	}
	b, _ := shared.LoadOrStore(skus, Generate(WithCustomers(skus), 2026))
	return b.(Books)
}

// ReportP99 reports the 99th percentile of the latencies, in µs.
func ReportP99(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds())/1e3, "p99-µs")
}
