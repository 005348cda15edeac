package reports

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// Shelf keeps a file Munshi made for a while and returns the link it is
// fetched from: the media store, linked under MUNSHI_PUBLIC_URL. The
// name's extension (.png, .html, .xlsx) says what the file is.
type Shelf interface {
	Keep(ctx context.Context, name string, body []byte) (link string, err error)
}

// KindFile is the audit kind of every chart or spreadsheet made: who asked,
// what, for which period, its size, never its bytes.
const KindFile = "file"

// MaxFileBytes is the largest file sent: WhatsApp's limit on a document
// Twilio fetches (16 MB); a larger export is refused in words.
const MaxFileBytes = 16_000_000

// DefaultExportTimeout bounds the making of one file. The webhook answers
// within its own budget; a file that takes longer follows as a late reply.
const DefaultExportTimeout = 50 * time.Second

// errTooLarge stops an export whose file would pass MaxFileBytes.
var errTooLarge = errors.New("reports: the file is larger than WhatsApp takes")

// made is a file answer: the caption and the files to keep, or a sentence
// when there is nothing to draw or list.
type made struct {
	caption string
	files   []madeFile // the first is the one sent as media
	rows    int
	period  *Period
	nothing bool // caption is the whole answer
}

type madeFile struct {
	name string
	body []byte
}

// fileReply answers a call as a chart or an Excel file. The call goes
// through Call first, so the role check, the refusal and the tool's audit
// entry are the text answer's; the file is made from the same tool's rows.
func (t *Tools) fileReply(ctx context.Context, user domain.User, call Call) (domain.Reply, Keys) {
	if call.Format == intent.FormatChart {
		call = chartFor(call)
	}
	res, err := t.Call(ctx, user, call.Tool, call.Args)
	if err != nil {
		return domain.Reply{Text: ErrorText(res, err)}, Keys{}
	}
	keys := KeysOf(res)
	timeout := t.ExportTimeout
	if timeout <= 0 {
		timeout = DefaultExportTimeout
	}
	fctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	var m made
	if call.Format == intent.FormatChart {
		m, err = t.chart(fctx, user, res, call.Rows)
	} else {
		m, err = t.workbook(fctx, user, res)
	}
	if err != nil {
		return t.fileFailed(ctx, user, res, call.Format, err), keys
	}
	if m.nothing {
		return domain.Reply{Text: m.caption}, keys
	}
	links := make([]string, len(m.files))
	size := 0
	for i, f := range m.files {
		if links[i], err = t.Files.Keep(ctx, f.name, f.body); err != nil {
			return t.fileFailed(ctx, user, res, call.Format, err), keys
		}
		size += len(f.body)
	}
	t.recordFile(ctx, user, res, call.Format, m, size, time.Since(start))
	text := m.caption
	if len(links) > 1 {
		text += "\nOpen the interactive chart: " + links[1]
	}
	return domain.Reply{Text: text, MediaURLs: links[:1]}, keys
}

// fileFailed answers in words when a file could not be made: the reason
// when it is the person's to act on, else the text answer itself.
func (t *Tools) fileFailed(ctx context.Context, user domain.User, res Result, format intent.Format, err error) domain.Reply {
	what := "chart"
	if format == intent.FormatExcel {
		what = "Excel file"
	}
	switch {
	case errors.Is(err, errTooLarge):
		return domain.Reply{Text: fmt.Sprintf("That %s would be larger than the %d MB WhatsApp can take. Please ask for a shorter period, such as last month.", what, MaxFileBytes/1_000_000)}
	case domain.ErrorCode(err) == domain.EINVALID:
		return domain.Reply{Text: domain.ErrorMessage(err)}
	}
	if t.Logger != nil {
		t.Logger.ErrorContext(ctx, "reports: file not made", "tool", res.Tool, "format", string(format), "err", err)
	}
	if t.Audit != nil {
		t.Audit.Record(ctx, user.Phone, KindFile, res.Tool, map[string]any{"format": string(format), "error": domain.ErrorCode(err)})
	}
	return domain.Reply{Text: fmt.Sprintf("Sorry, I couldn't make the %s just now. Here are the figures:\n\n%s", what, res.Text)}
}

// recordFile audits a file sent: who asked, which tool with which
// arguments, the period, rows and bytes.
func (t *Tools) recordFile(ctx context.Context, user domain.User, res Result, format intent.Format, m made, size int, took time.Duration) {
	if t.Audit == nil {
		return
	}
	names := make([]string, len(m.files))
	for i, f := range m.files {
		names[i] = f.name
	}
	detail := map[string]any{
		"format": string(format), "role": string(user.Role), "args": auditArgs(res.Tool, res.Args),
		"files": strings.Join(names, "|"), "rows": m.rows, "bytes": size, "latency_us": took.Microseconds(),
	}
	if m.period != nil {
		detail["period"] = m.period.Name
		detail["from"], detail["to"] = m.period.From.Format(time.DateOnly), m.period.To.Add(-time.Nanosecond).Format(time.DateOnly)
	}
	t.Audit.Record(ctx, user.Phone, KindFile, res.Tool, detail)
}

// allPages reads every page of a result's answer, from the first, MaxRows
// at a time, as the same tool with the arguments it understood: the rows a
// text answer would show page by page with MORE.
func (t *Tools) allPages(ctx context.Context, user domain.User, res Result) iter.Seq2[Report, error] {
	return func(yield func(Report, error) bool) {
		for offset := 0; ; {
			args := cloneArgs(res.Args)
			args["offset"] = offset
			rep, _, err := t.run(ctx, user, res.Tool, args, MaxRows, res.at)
			if err != nil {
				yield(nil, err)
				return
			}
			if rep.Rows() == 0 || !yield(rep, nil) {
				return
			}
			offset += rep.Rows()
			if tab := rep.Table(res.at.now, res.at.loc); offset >= tab.Count {
				return
			}
		}
	}
}

// fileName names a file after what it holds (stem) and when: the period
// of a sales file (top-customers-2026-11.png, sales-2026-11-01-to-2026-11-20.xlsx),
// else the local day a snapshot was taken (outstanding-2026-12-01.xlsx).
// Every name fits the media links' names: ASCII letters, digits and dashes.
func fileName(stem string, period *Period, ext string, c clock) string {
	when := c.now.In(c.loc).Format(time.DateOnly)
	if period != nil {
		when = period.slug()
	}
	return stem + "-" + when + ext
}

// slug writes the period's days for a file name: one day as 2026-11-30, a
// whole calendar month that is over as 2026-11, else
// 2026-11-01-to-2026-11-20 (this month on its last day too: its sales are
// not all in yet).
func (p Period) slug() string {
	from, last := p.From, p.To.Add(-time.Nanosecond)
	switch {
	case sameDay(from, last):
		return from.Format(time.DateOnly)
	case from.Day() == 1 && p.To.Equal(from.AddDate(0, 1, 0)) && !p.soFar():
		return from.Format("2006-01")
	}
	return from.Format(time.DateOnly) + "-to-" + last.Format(time.DateOnly)
}

// salesStem is what a sales file holds: the top customers, sales by
// customer or product (a chart's bars), or sales, of one product or to
// one customer when asked about one. A spreadsheet holds every sale line,
// so it is named as sales whatever the grouping.
func salesStem(s *Sales, chart bool) string {
	if s.Top && chart {
		return "top-customers"
	}
	stem := "sales"
	if s.Product != nil {
		stem += "-" + fileWord(s.Product.ID)
	}
	if len(s.Customers) == 1 {
		stem += "-" + fileWord(s.Customers[0].ID)
	}
	if chart && s.By != ByDay && (s.Product == nil || s.By != ByCustomer) {
		stem += "-by-" + string(s.By)
	}
	return stem
}

// paymentsStem is what a payments file holds: payments received, from one
// customer or by one mode when asked about one, and a chart's grouping
// (by customer or by mode; a trend by day says nothing more).
func paymentsStem(p *PaymentsReceived, chart bool) string {
	stem := "payments-received"
	if len(p.Customers) == 1 {
		stem += "-" + fileWord(p.Customers[0].ID)
	}
	if len(p.Modes) == 1 {
		stem += "-" + fileWord(modeArg(p.Modes[0]))
	}
	if chart && (p.By == PaymentsByCustomer || p.By == PaymentsByMode) {
		stem += "-by-" + string(p.By)
	}
	return stem
}

// fileWord is an id as a word of a file name: lower case, and any
// character a media name does not keep made a dash.
func fileWord(id string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, id)
}

// capped is a buffer that refuses to grow past MaxFileBytes, so that an
// export too large to send stops early instead of filling memory.
type capped struct{ b []byte }

func (c *capped) Write(p []byte) (int, error) {
	if len(c.b)+len(p) > MaxFileBytes {
		return 0, errTooLarge
	}
	c.b = append(c.b, p...)
	return len(p), nil
}
