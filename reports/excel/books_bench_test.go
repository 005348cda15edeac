package excel_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/excel"
	"github.com/munshi/munshi/reports/reportstest"
)

// The sales export as the owner gets it in the chat, over the generated
// books of 10,000 SKUs and 500,000 order lines a year (reportstest.Large):
// the text routed, the sales tool, its lines paged from SQLite into the
// workbook, the file capped at WhatsApp's 16 MB and kept for its link.
// Every file is read back with excelize's streaming reader and its lines
// counted against the books' own SQL.
//
//	go test -run '^$' -bench SalesExcelFromBooks -benchtime 1x ./reports/excel/

// largeBooks is the owner's chat over a private copy of the large books.
type largeBooks struct {
	tools  *reports.Tools
	router *intent.Router
	db     *sql.DB // the same file, read with SQL of its own
	shelf  *keptFile
}

var owner = domain.User{Phone: reportstest.KnownOwner, Name: "Vikram Singh", Role: domain.RoleOwner}

func openLarge(b *testing.B) *largeBooks {
	ctx := context.Background()
	s, path := reportstest.OpenCopy(b, reportstest.Large)
	ps, err := s.Products(ctx)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := s.Customers(ctx)
	if err != nil {
		b.Fatal(err)
	}
	r, err := intent.NewRouter(intent.Vocabulary{Products: ps, Customers: cs}, intent.Options{})
	if err != nil {
		b.Fatal(err)
	}
	tools := reports.NewTools(s, audit.New(s, nil, slog.New(slog.NewTextHandler(io.Discard, nil))))
	tools.Now, tools.Names = func() time.Time { return reportstest.Now }, r
	l := &largeBooks{tools: tools, router: r, shelf: &keptFile{}}
	tools.Files = l.shelf
	if l.db, err = sql.Open("sqlite3", "file:"+path+"?mode=ro"); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { l.db.Close() })
	return l
}

// keptFile is a shelf that keeps the last file made, for reading back.
type keptFile struct {
	name string
	body []byte
}

func (k *keptFile) Keep(_ context.Context, name string, body []byte) (string, error) {
	k.name, k.body = name, body
	return "https://munshi.example.com/media/TESTFILE/" + name, nil
}

// take hands over the file kept and forgets it.
func (k *keptFile) take() []byte {
	body := k.body
	k.name, k.body = "", nil
	return body
}

// ask answers the owner's text as the chat does: route, plan, reply.
func (l *largeBooks) ask(b *testing.B, text string) domain.Reply {
	d := l.router.Route(context.Background(), text)
	call, ok := l.tools.Plan(d)
	if !ok {
		b.Fatalf("%q: no plan (%s)", text, d.Intent)
	}
	reply, _ := l.tools.ReplyKeys(context.Background(), owner, call)
	return reply
}

// linesIn counts, with SQL of its own, the order lines of committed and
// delivered orders in the last n days: the lines the export must hold.
func (l *largeBooks) linesIn(b *testing.B, days int) int {
	p, err := reports.MakePeriod(fmt.Sprintf("last_%d_days", days), reportstest.Now, domain.DefaultLocation())
	if err != nil {
		b.Fatal(err)
	}
	stamp := func(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05") }
	var n int
	if err := l.db.QueryRow(`SELECT COUNT(*) FROM order_lines l JOIN orders o ON o.id = l.order_id
		WHERE o.status IN ('committed', 'delivered') AND o.created_at >= ? AND o.created_at < ?`, stamp(p.From), stamp(p.To)).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}

// export is one sales export of the last n days: the file, or the
// refusal when it would pass 16 MB.
type export struct {
	reply domain.Reply
	file  []byte
}

func (l *largeBooks) export(b *testing.B, days int) export {
	reply := l.ask(b, fmt.Sprintf("last %d days sales excel", days))
	return export{reply: reply, file: l.shelf.take()}
}

// refused reports whether the export was refused for its size, asking for
// a shorter period, with no file.
func (e export) refused() bool {
	return strings.Contains(e.reply.Text, "larger than the 16 MB WhatsApp can take") &&
		strings.Contains(e.reply.Text, "shorter period") && len(e.reply.MediaURLs) == 0 && e.file == nil
}

// check reads the file back and fails unless it is an xlsx of at most
// 16 MB whose "Sales lines" sheet holds exactly want order lines, as its
// caption says.
func (e export) check(b *testing.B, want int) {
	if len(e.reply.MediaURLs) != 1 || !strings.HasSuffix(e.reply.MediaURLs[0], ".xlsx") || e.file == nil {
		b.Fatalf("no Excel file for %d lines: %q %v", want, e.reply.Text, e.reply.MediaURLs)
	}
	if len(e.file) > reports.MaxFileBytes {
		b.Fatalf("a %d-byte file passed the %d-byte cap", len(e.file), reports.MaxFileBytes)
	}
	if caption := excel.RowCount(want); !strings.Contains(e.reply.Text, caption) {
		b.Fatalf("the caption does not say %s:\n%s", caption, e.reply.Text)
	}
	if got := saleLinesIn(b, e.file); got != want {
		b.Fatalf("the file holds %d order lines, the books %d", got, want)
	}
}

// saleLinesIn counts the order lines of the "Sales lines" sheet, reading
// the file with excelize's streaming row reader: the rows whose Order
// column holds an order number.
func saleLinesIn(b *testing.B, file []byte) int {
	f, err := excelize.OpenReader(bytes.NewReader(file))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	rows, err := f.Rows("Sales lines")
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		cols, err := rows.Columns()
		if err != nil {
			b.Fatal(err)
		}
		if len(cols) > 1 && strings.HasPrefix(cols[1], "ORD-") {
			n++
		}
	}
	if err := rows.Error(); err != nil {
		b.Fatal(err)
	}
	return n
}

// fits finds, by bisection over the days, the longest "last N days" whose
// export fits in 16 MB: N fits and N+1 is refused.
func (l *largeBooks) fits(b *testing.B) int {
	lo, hi := 1, 366 // lo fits; hi is refused
	if e := l.export(b, hi); !e.refused() {
		b.Fatalf("a year of sales was not refused: %q", e.reply.Text)
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if l.export(b, mid).refused() {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo
}

// BenchmarkSalesExcelFromBooks times the owner's sales export from the
// large books: a week (about 10,000 lines), the longest period that fits
// in 16 MB (found first, untimed), and a year, which is refused once the
// file reaches 16 MB. It reports the lines, the file's size, the time per
// line, the heap in use before (collected: the books' caches, the router
// over 10,000 SKUs) and its peak during the exports (sampled every
// millisecond). The file is held in memory up to the cap (reports'
// capped buffer, grown by append), so the peak grows with the lines up to
// 16 MB of file; and a refused export has read and encoded every line of
// the period before its zip reaches 16 MB.
func BenchmarkSalesExcelFromBooks(b *testing.B) {
	l := openLarge(b)
	longest := l.fits(b)
	for _, tc := range []struct {
		name string
		days int
	}{{"week", 7}, {"longest-that-fits", longest}, {"year-refused", 365}} {
		b.Run(tc.name, func(b *testing.B) {
			lines := l.linesIn(b, tc.days)
			over := tc.name == "year-refused"
			runtime.GC()
			before := excel.HeapPeak()() // the books, the router, the caches
			stop := excel.HeapPeak()
			size := 0
			for b.Loop() {
				e := l.export(b, tc.days)
				b.StopTimer()
				if over {
					if !e.refused() {
						b.Fatalf("%d days (%d lines) were not refused: %q", tc.days, lines, e.reply.Text)
					}
				} else {
					e.check(b, lines)
					size = len(e.file)
				}
				b.StartTimer()
			}
			peak := stop()
			b.ReportMetric(float64(tc.days), "days")
			b.ReportMetric(float64(lines), "lines")
			if !over {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines), "ns/line")
			}
			b.ReportMetric(float64(before)/(1<<20), "heap-before-MiB")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(size)/(1<<20), "file-MiB")
		})
	}
}
