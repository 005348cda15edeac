package reports_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports"
)

// TestDefaultPeriodByDayOfMonth: a sales question that names no period
// covers the last 30 days until the 7th and the month so far from the 8th,
// the day counted in Kolkata, not UTC.
func TestDefaultPeriodByDayOfMonth(t *testing.T) {
	loc := domain.DefaultLocation()
	for day := 1; day <= 31; day++ {
		now := time.Date(2026, 12, day, 10, 0, 0, 0, loc)
		want := reports.PeriodLast30
		if day >= 8 {
			want = reports.PeriodThisMonth
		}
		if got := reports.DefaultPeriod(now, loc); got != want {
			t.Errorf("%d Dec: %s, want %s", day, got, want)
		}
	}
	// 00:15 on the 8th in Kolkata is still the 7th in UTC; 23:45 on the
	// 7th in Kolkata is the 7th in UTC too.
	for _, c := range []struct {
		at   time.Time
		want string
	}{
		{time.Date(2026, 12, 8, 0, 15, 0, 0, loc).UTC(), reports.PeriodThisMonth},
		{time.Date(2026, 12, 7, 23, 45, 0, 0, loc).UTC(), reports.PeriodLast30},
		{time.Date(2026, 12, 1, 0, 15, 0, 0, loc).UTC(), reports.PeriodLast30},
	} {
		if got := reports.DefaultPeriod(c.at, loc); got != c.want {
			t.Errorf("%v (UTC): %s, want %s", c.at, got, c.want)
		}
	}
}

// demoBooksAt seeds the demo distributor with its history ending the day
// before now, and answers at now.
func demoBooksAt(t *testing.T, now time.Time) *books {
	return openBooks(t, now, func(ctx context.Context, s store.Store) error {
		_, err := demo.Seed(ctx, s, now)
		return err
	})
}

// TestQuestionsThroughTheMonth: what an owner reads, and the files' names,
// on the 1st, the 7th, the 8th and the 31st of a month and on the 1st of
// March after a short February. A question with no period has sales to
// show even on the 1st; "this month" said in words keeps its meaning and
// says how many days it holds.
func TestQuestionsThroughTheMonth(t *testing.T) {
	loc := domain.DefaultLocation()
	type ask struct{ text, first, file string }
	for _, c := range []struct {
		at   time.Time
		asks []ask
	}{
		{time.Date(2026, 12, 1, 10, 0, 0, 0, loc), []ask{
			{"sales report", "*Sales last 30 days (2 Nov–1 Dec)*", ""},
			{"top customers chart bhejo", "📈 *Top customers last 30 days (2 Nov–1 Dec)*", "top-customers-2026-11-02-to-2026-12-01.png"},
			{"sales ka chart bhejo", "📈 *Sales last 30 days (2 Nov–1 Dec) · by day*", "sales-2026-11-02-to-2026-12-01.png"},
			{"is mahine ki sales", "*Sales this month so far (1 Dec, 1 day)*", ""},
			{"sales excel", "📎 *Sales last 30 days (2 Nov–1 Dec)*", "sales-2026-11-02-to-2026-12-01.xlsx"},
			{"pichle mahine ki sales excel", "📎 *Sales last month (1–30 Nov)*", "sales-2026-11.xlsx"},
			{"top customers last month chart", "📈 *Top customers last month (1–30 Nov)*", "top-customers-2026-11.png"},
			{"kal ki sales ka chart", "📈 *Sales yesterday (30 Nov) · by day*", "sales-2026-11-30.png"},
			{"outstanding excel", "📎 *Who owes us*", "outstanding-2026-12-01.xlsx"},
			{"stock chart", "📈 *Stock · 1 Dec 2026*", "stock-2026-12-01.png"},
			{"out of stock chart", "📈 *Out of stock · 1 Dec 2026*", "out-of-stock-2026-12-01.png"},
			{"pending orders excel", "📎 *Pending orders*", "pending-orders-2026-12-01.xlsx"},
		}},
		{time.Date(2026, 12, 7, 10, 0, 0, 0, loc), []ask{
			{"sales report", "*Sales last 30 days (8 Nov–7 Dec)*", ""},
			{"top customers chart bhejo", "📈 *Top customers last 30 days (8 Nov–7 Dec)*", "top-customers-2026-11-08-to-2026-12-07.png"},
		}},
		{time.Date(2026, 12, 8, 10, 0, 0, 0, loc), []ask{
			{"sales report", "*Sales this month so far (1–8 Dec, 8 days)*", ""},
			{"top customers chart bhejo", "📈 *Top customers this month so far (1–8 Dec, 8 days)*", "top-customers-2026-12-01-to-2026-12-08.png"},
			{"last 30 days sales", "*Sales last 30 days (9 Nov–8 Dec)*", ""},
		}},
		{time.Date(2026, 12, 31, 10, 0, 0, 0, loc), []ask{
			{"sales report", "*Sales this month so far (1–31 Dec, 31 days)*", ""},
			{"sales excel", "📎 *Sales this month so far (1–31 Dec, 31 days)*", "sales-2026-12-01-to-2026-12-31.xlsx"},
			{"is hafte ki sales", "*Sales this week so far (28–31 Dec, 4 days)*", ""},
		}},
		{time.Date(2027, 3, 1, 10, 0, 0, 0, loc), []ask{
			{"sales report", "*Sales last 30 days (31 Jan–1 Mar)*", ""},
			{"pichle mahine ki sales excel", "📎 *Sales last month (1–28 Feb)*", "sales-2027-02.xlsx"},
		}},
	} {
		b := demoBooksAt(t, c.at)
		withShelf(t, b)
		for _, a := range c.asks {
			reply := b.askFor(t, owner, a.text)
			if first := lines(reply.Text)[0]; first != a.first {
				t.Errorf("%s, %q: first line %q, want %q\n%s", c.at.Format("2 Jan"), a.text, first, a.first, reply.Text)
			}
			switch {
			case a.file == "" && len(reply.MediaURLs) != 0:
				t.Errorf("%s, %q: a file %v for a text question", c.at.Format("2 Jan"), a.text, reply.MediaURLs)
			case a.file != "" && (len(reply.MediaURLs) != 1 || !strings.HasSuffix(reply.MediaURLs[0], "/"+a.file)):
				t.Errorf("%s, %q: files %v, want one named %s\n%s", c.at.Format("2 Jan"), a.text, reply.MediaURLs, a.file, reply.Text)
			}
			if n := ordersIn(reply.Text); strings.HasPrefix(a.first, "📈 *Top customers") && n < 10 {
				t.Errorf("%s, %q: a chart of %d orders:\n%s", c.at.Format("2 Jan"), a.text, n, reply.Text)
			}
		}
	}
}

// ordersIn reads a file's caption for its count of orders.
func ordersIn(caption string) int {
	for _, l := range lines(caption) {
		if v, ok := strings.CutPrefix(l, "Orders: "); ok {
			n, _ := strconv.Atoi(strings.ReplaceAll(v, ",", ""))
			return n
		}
	}
	return 0
}
