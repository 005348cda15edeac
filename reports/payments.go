package reports

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// ToolPaymentsReceived sums the money that came in over a period: the
// collections, by customer, mode, day or payment.
const ToolPaymentsReceived = "payments_received"

// DefaultPaymentsPeriod is the period of a payments question that names
// none: collections are counted day by day.
const DefaultPaymentsPeriod = PeriodToday

// paymentsReceived answers what was received in a period (today when none
// is named, or the dates from and to), of the customers and modes asked
// about. One customer's payments are listed one by one unless a grouping
// is asked for.
func (t *Tools) paymentsReceived(ctx context.Context, args map[string]any, page Page, understood map[string]any, c clock) (Report, map[string]any, error) {
	period, err := paymentsPeriod(args, understood, c)
	if err != nil {
		return nil, understood, err
	}
	customers, err := t.resolve(ctx, customerKind, args["customer"], understood)
	if err != nil {
		return nil, understood, err
	}
	modes, err := modesArg(args["mode"])
	if err != nil {
		return nil, understood, err
	}
	switch len(modes) {
	case 0:
	case 1:
		understood["mode"] = modeArg(modes[0])
	default:
		list := make([]string, len(modes))
		for i, m := range modes {
			list[i] = modeArg(m)
		}
		understood["mode"] = list
	}
	by, _ := args["by"].(string)
	q := PaymentsQuery{From: period.From, To: period.To, CustomerIDs: ids(customers), Modes: modes,
		UTCOffset: utcOffset(period.From), Page: page}
	switch b := PaymentsBy(strings.ToLower(strings.TrimSpace(by))); b {
	case PaymentsByCustomer, PaymentsByMode, PaymentsByDay, PaymentsByPayment:
		q.By = b
	case "":
		q.By = PaymentsByCustomer
		if len(customers) == 1 {
			q.By = PaymentsByPayment // "Rajesh ne is mahine kitna diya": each of his payments
		}
	default:
		return nil, understood, domain.Errorf(domain.EINVALID, "Payments can be shown by customer, mode, day or payment, not %q.", clip(by, 20))
	}
	understood["by"] = string(q.By)
	r := &PaymentsReceived{Period: period, By: q.By, Customers: customers, Modes: modes, Offset: page.Offset}
	r.Totals, r.Lines, err = t.Books.PaymentsReceived(ctx, q)
	return r, understood, err
}

// paymentsPeriod reads the period asked for: a name ("today", "last
// week", "pichle 7 din"), or dates from and to (YYYY-MM-DD, both days
// counted, to today when only from is given), at most MaxPeriodDays long.
func paymentsPeriod(args map[string]any, understood map[string]any, c clock) (Period, error) {
	name, _ := args["period"].(string)
	from, _ := args["from"].(string)
	to, _ := args["to"].(string)
	name, from, to = strings.TrimSpace(name), strings.TrimSpace(from), strings.TrimSpace(to)
	if from == "" && to == "" {
		pname := DefaultPaymentsPeriod
		if name != "" {
			if pname = canonicalPeriod(name); pname == "" {
				return Period{}, domain.Errorf(domain.EINVALID, "I don't know the period %q. Try today, yesterday, this week, last week, this month, last month or last 30 days.", clip(name, 40))
			}
		}
		understood["period"] = pname
		return MakePeriod(pname, c.now, c.loc)
	}
	if name != "" {
		return Period{}, domain.Errorf(domain.EINVALID, "Please ask for a period or for dates, not both.")
	}
	if from == "" {
		return Period{}, domain.Errorf(domain.EINVALID, "From which date? Give from as well as to (YYYY-MM-DD).")
	}
	first, err := dateArg("from", from, c.loc)
	if err != nil {
		return Period{}, err
	}
	now := c.now.In(c.loc)
	last := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, c.loc)
	if to != "" {
		if last, err = dateArg("to", to, c.loc); err != nil {
			return Period{}, err
		}
	}
	if last.Before(first) {
		return Period{}, domain.Errorf(domain.EINVALID, "The dates run backwards: %s is before %s.", last.Format(time.DateOnly), first.Format(time.DateOnly))
	}
	p := Period{Name: PeriodDates, From: first, To: last.AddDate(0, 0, 1)}
	if p.To.After(first.AddDate(0, 0, MaxPeriodDays)) {
		return Period{}, domain.Errorf(domain.EINVALID, "That is more than %d days. Please ask for a year or less at a time.", MaxPeriodDays)
	}
	understood["from"], understood["to"] = first.Format(time.DateOnly), last.Format(time.DateOnly)
	return p, nil
}

// dateArg reads a calendar date (YYYY-MM-DD) in loc.
func dateArg(key, s string, loc *time.Location) (time.Time, error) {
	d, err := time.ParseInLocation(time.DateOnly, s, loc)
	if err != nil {
		return time.Time{}, domain.Errorf(domain.EINVALID, "%s must be a date such as 2026-03-01, not %q.", key, clip(s, 20))
	}
	return d, nil
}

// modeWords are the words a mode of payment goes by, canonical spellings
// and the apps and rails people name: GPay is UPI, NEFT a bank transfer.
var modeWords = map[string]domain.PaymentMode{
	"cash": domain.PayCOD, "cod": domain.PayCOD, "nakad": domain.PayCOD, "naqad": domain.PayCOD, "nagad": domain.PayCOD,
	"rokda": domain.PayCOD, "rokada": domain.PayCOD, "rokad": domain.PayCOD, "नकद": domain.PayCOD, "नगद": domain.PayCOD, "कैश": domain.PayCOD,
	"upi": domain.PayUPI, "gpay": domain.PayUPI, "googlepay": domain.PayUPI, "phonepe": domain.PayUPI, "paytm": domain.PayUPI,
	"bhim": domain.PayUPI, "यूपीआई": domain.PayUPI,
	"cheque": domain.PayCheque, "check": domain.PayCheque, "chq": domain.PayCheque, "cheq": domain.PayCheque,
	"chek": domain.PayCheque, "चेक": domain.PayCheque,
	"neft": domain.PayBankTransfer, "rtgs": domain.PayBankTransfer, "imps": domain.PayBankTransfer, "netbanking": domain.PayBankTransfer,
	"banktransfer": domain.PayBankTransfer,
}

// modePhrases are modes said in two words.
var modePhrases = map[[2]string]domain.PaymentMode{
	{"bank", "transfer"}: domain.PayBankTransfer, {"online", "transfer"}: domain.PayBankTransfer, {"net", "banking"}: domain.PayBankTransfer,
	{"google", "pay"}: domain.PayUPI, {"phone", "pe"}: domain.PayUPI,
}

// checkBeside are the words that make "check" a cheque, not "please
// check": "check se", "by check", "check wale payments".
var checkBeside = map[string]bool{"by": true, "se": true, "wala": true, "wale": true, "wali": true, "payment": true,
	"payments": true, "mein": true, "me": true, "mode": true}

// modeOf reads one mode as a tool argument names it: a mode as the books
// write it (cod, upi, bank_transfer…) or a word people use for it.
func modeOf(s string) (domain.PaymentMode, bool) {
	w := strings.ToLower(strings.TrimSpace(s))
	if m, err := domain.ParsePaymentMode(w); err == nil {
		return m, true
	}
	if m, ok := modeWords[strings.NewReplacer(" ", "", "_", "", "-", "").Replace(w)]; ok {
		return m, true
	}
	if f := strings.Fields(w); len(f) == 2 {
		m, ok := modePhrases[[2]string{f[0], f[1]}]
		return m, ok
	}
	return "", false
}

// modesArg reads the mode argument: a mode, several separated by commas
// ("upi, cash"), or a list; none is every mode.
func modesArg(v any) ([]domain.PaymentMode, error) {
	var words []string
	switch x := v.(type) {
	case nil:
	case string:
		words = strings.FieldsFunc(x, func(r rune) bool { return r == ',' || r == '|' || r == '/' })
	case []string:
		words = x
	case []any:
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, domain.Errorf(domain.EINVALID, "mode must be a mode of payment such as cash or upi.")
			}
			words = append(words, s)
		}
	default:
		return nil, domain.Errorf(domain.EINVALID, "mode must be a mode of payment such as cash or upi.")
	}
	var out []domain.PaymentMode
	for _, w := range words[:min(len(words), 8)] {
		if strings.TrimSpace(w) == "" {
			continue
		}
		m, ok := modeOf(w)
		if !ok {
			return nil, domain.Errorf(domain.EINVALID, "I know payments by cash, UPI, cheque and bank transfer, not %q.", clip(strings.TrimSpace(w), 20))
		}
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out, nil
}

// modeArg is a mode as the tool's argument names it: cash, not cod.
func modeArg(m domain.PaymentMode) string {
	if m == domain.PayCOD {
		return "cash"
	}
	return string(m)
}

// modeName names how money came in, as people say it: cash, UPI, cheque,
// bank transfer.
func modeName(m domain.PaymentMode) string {
	switch m {
	case domain.PayCOD:
		return "cash"
	case domain.PayUPI:
		return "UPI"
	case domain.PayCheque:
		return "cheque"
	case domain.PayBankTransfer:
		return "bank transfer"
	case domain.PayCredit:
		return "credit"
	}
	return rowText(string(m))
}

func modeNames(ms []domain.PaymentMode) string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = modeName(m)
	}
	return strings.Join(names, ", ")
}

// rowText keeps a name from the books on its line of a reply: control
// characters become spaces and bidirectional overrides are dropped, so a
// name cannot break the list or turn the text around it.
func rowText(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		switch {
		case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
			return -1
		case unicode.IsControl(r):
			return ' '
		}
		return r
	}, s))
}

// PaymentsReceived is the money received in a period: by customer
// (largest first), by mode, by day (newest first) or each payment
// (newest first), with the totals of every payment matched.
type PaymentsReceived struct {
	Period    Period
	By        PaymentsBy
	Customers []Named              // the customers asked about, if any
	Modes     []domain.PaymentMode // the modes asked about, if any
	Totals    PaymentsTotals
	Lines     []PaymentLine
	Offset    int
}

// importedNote marks a payment that came from history files.
const importedNote = "imported history"

func (p *PaymentsReceived) Rows() int { return len(p.Lines) }

// paymentsTitle is what the answer is, without WhatsApp marks: the text
// puts the part before "from", "by" or "·" in bold.
func (p *PaymentsReceived) paymentsTitle() (bold, rest string) {
	bold = "Payments received"
	if len(p.Customers) > 0 {
		rest += " from " + strings.Join(names(p.Customers), " / ")
	}
	if len(p.Modes) > 0 {
		ms := make([]string, len(p.Modes))
		for i, m := range p.Modes {
			ms[i] = modeName(m)
		}
		rest += " by " + strings.Join(ms, " or ")
	}
	return bold, rest + " · " + p.Period.Label()
}

func (p *PaymentsReceived) view(c clock) ([]string, []string, int, int) {
	bold, rest := p.paymentsTitle()
	title := "*" + bold + "*" + rest
	t := p.Totals
	if t.Payments == 0 {
		return []string{title, "No payments received in this period."}, nil, 0, 0
	}
	total := fmt.Sprintf("%s in %s %s", t.Amount, count(t.Payments), domain.Plural("payment", int64(t.Payments)))
	if len(p.Customers) != 1 {
		total += fmt.Sprintf(" from %s %s", count(t.Customers), domain.Plural("customer", int64(t.Customers)))
	}
	head := []string{title, total, ""}
	var rows []string
	for i, row := range p.Table(c.now, c.loc).Rows {
		rows = append(rows, p.paymentText(i, row))
	}
	return head, rows, p.Offset, t.Groups
}

// paymentText is row i of the answer's Table as a line of text.
func (p *PaymentsReceived) paymentText(i int, row []Cell) string {
	l := p.Lines[i]
	n := fmt.Sprintf("%s %s", count(l.Payments), domain.Plural("payment", int64(l.Payments)))
	switch p.By {
	case PaymentsByMode:
		mode := row[1].Text
		if r, size := utf8.DecodeRuneInString(mode); size > 0 {
			mode = string(unicode.ToUpper(r)) + mode[size:]
		}
		return fmt.Sprintf("• %s: %s (%s from %s %s)", mode, row[2].Money, n, count(l.Customers), domain.Plural("customer", int64(l.Customers)))
	case PaymentsByDay:
		day := row[0].Text
		if !row[0].Empty {
			day = row[0].Date.Format("Mon 2 Jan")
		}
		return fmt.Sprintf("• %s: %s (%s: %s)", day, row[2].Money, n, modeNames(l.Modes))
	case PaymentsByPayment:
		s := fmt.Sprintf("• %s: %s by %s", row[2].Date.Format("2 Jan"), row[3].Money, modeName(l.Mode))
		if len(p.Customers) != 1 {
			s += ", " + row[1].Text
		}
		if ref := rowText(l.Reference); ref != "" {
			s += " (ref " + clip(ref, 30) + ")"
		}
		if l.Imported {
			s += ", " + importedNote
		}
		return s
	}
	return fmt.Sprintf("%d. %s: %s (%s: %s)", p.Offset+i+1, row[1].Text, row[2].Money, n, modeNames(l.Modes))
}

// Table of the payments received: one row per customer, mode, day or
// payment of the page shown, and the totals of every payment matched.
func (p *PaymentsReceived) Table(_ time.Time, loc *time.Location) Table {
	bold, rest := p.paymentsTitle()
	period := p.Period
	t := Table{Title: bold + rest, Period: &period, Offset: p.Offset, Count: p.Totals.Groups}
	amount, payments := Column{"amount", "Received", ColMoney}, Column{"payments", "Payments", ColCount}
	switch p.By {
	case PaymentsByMode:
		t.Columns = []Column{{"mode", "Mode", ColText}, {"name", "Mode of payment", ColText}, amount, payments,
			{"customers", "Customers", ColCount}}
	case PaymentsByDay:
		t.Columns = []Column{{"day", "Day", ColDate}, {"name", "Day", ColText}, amount, payments,
			{"customers", "Customers", ColCount}, {"modes", "Modes", ColText}}
	case PaymentsByPayment:
		t.Columns = []Column{{"customer_id", "Customer ID", ColText}, {"customer", "Customer", ColText}, {"received_on", "Received on", ColDate},
			amount, {"mode", "Mode", ColText}, {"reference", "Reference", ColText}, {"note", "Note", ColText}}
	default:
		t.Columns = []Column{{"customer_id", "Customer ID", ColText}, {"name", "Customer", ColText}, amount, payments,
			{"modes", "Modes", ColText}, {"last_payment", "Last payment", ColDate}}
	}
	for _, l := range p.Lines {
		switch p.By {
		case PaymentsByMode:
			t.Rows = append(t.Rows, []Cell{textCell(modeArg(l.Mode)), textCell(modeName(l.Mode)), moneyCell(l.Amount),
				countCell(l.Payments), countCell(l.Customers)})
		case PaymentsByDay:
			k := Cell{Text: l.Key, Empty: true}
			if day, err := time.ParseInLocation(time.DateOnly, l.Key, loc); err == nil {
				k = Cell{Text: l.Key, Date: day}
			}
			t.Rows = append(t.Rows, []Cell{k, textCell(l.Key), moneyCell(l.Amount), countCell(l.Payments),
				countCell(l.Customers), textCell(modeNames(l.Modes))})
		case PaymentsByPayment:
			note := ""
			if l.Imported {
				note = importedNote
			}
			t.Rows = append(t.Rows, []Cell{textCell(l.CustomerID), textCell(rowText(l.Customer)), dateCell(l.Last, loc),
				moneyCell(l.Amount), textCell(modeName(l.Mode)), textCell(rowText(l.Reference)), textCell(note)})
		default:
			t.Rows = append(t.Rows, []Cell{textCell(l.CustomerID), textCell(rowText(l.Label)), moneyCell(l.Amount),
				countCell(l.Payments), textCell(modeNames(l.Modes)), dateCell(l.Last, loc)})
		}
	}
	tot := p.Totals
	t.Totals = []Total{
		{Column{"amount", "Received", ColMoney}, moneyCell(tot.Amount)},
		{Column{"payments", "Payments", ColCount}, countCell(tot.Payments)},
		{Column{"customers", "Customers", ColCount}, countCell(tot.Customers)},
	}
	return t
}

func (p *PaymentsReceived) table(c clock) ([]string, [][]any, map[string]any) {
	tab := p.Table(c.now, c.loc)
	cols := make([]string, len(tab.Columns))
	for i, col := range tab.Columns {
		cols[i] = col.Key
	}
	rows := make([][]any, len(tab.Rows))
	for i, row := range tab.Rows {
		rows[i] = make([]any, len(row))
		for j, cell := range row {
			switch tab.Columns[j].Kind {
			case ColMoney:
				rows[i][j] = cell.Money.String()
			case ColCount:
				rows[i][j] = cell.N
			case ColDate:
				if cell.Date.IsZero() {
					rows[i][j] = cell.Text
				} else {
					rows[i][j] = cell.Date.In(c.loc).Format(time.DateOnly)
				}
			default:
				rows[i][j] = cell.Text
			}
		}
	}
	t := p.Totals
	return cols, rows, map[string]any{
		"period": p.Period.Name, "from": p.Period.From.Format(time.DateOnly), "to": p.Period.To.Add(-time.Nanosecond).Format(time.DateOnly),
		"by": string(p.By), "groups": t.Groups, "payments": t.Payments, "customers": t.Customers, "received": t.Amount.String(),
	}
}

// paymentsCall maps a payments question to its call: the period, the
// customers the router found, the modes and the grouping the words name.
func paymentsCall(n intent.Normalized, args map[string]any, period string, has func(string) bool) Call {
	delete(args, "product")
	if period != "" {
		args["period"] = period
	}
	modes := modesIn(n)
	if len(modes) > 0 {
		list := make([]string, len(modes))
		for i, m := range modes {
			list[i] = modeArg(m)
		}
		args["mode"] = list
	}
	words := map[string]bool{}
	for _, tok := range n.Tokens {
		words[tok.Text] = true
	}
	switch {
	case has("mode modes modewise alag breakup split") || len(modes) > 1 && !has("customer customers party parties kis kisne kaun who"):
		args["by"] = string(PaymentsByMode)
	case has("daily roz rozana datewise daywise") || words["day"] && has("by per wise"):
		args["by"] = string(PaymentsByDay)
	case has("each every detail details entries entry transactions"):
		args["by"] = string(PaymentsByPayment)
	case has("customer customers party parties customerwise partywise"):
		args["by"] = string(PaymentsByCustomer)
	}
	return Call{Tool: ToolPaymentsReceived, Args: args}
}

// modesIn reads the modes of payment a question names, in the words left
// outside the names it recognised (a customer called "Cash & Carry" names
// no mode). "check" is a cheque only beside a word about paying: "check
// se", not "check karo".
func modesIn(n intent.Normalized) []domain.PaymentMode {
	named := make([]bool, len(n.Tokens))
	for _, e := range n.Entities {
		if e.Kind != intent.EntityProduct && e.Kind != intent.EntityCustomer {
			continue
		}
		for i := max(e.Start, 0); i < e.End && i < len(named); i++ {
			named[i] = true
		}
	}
	word := func(i int) string {
		if i < 0 || i >= len(n.Tokens) || named[i] {
			return ""
		}
		return strings.ToLower(n.Tokens[i].Text)
	}
	var out []domain.PaymentMode
	add := func(m domain.PaymentMode) {
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	for i := range n.Tokens {
		w := word(i)
		if w == "" {
			continue
		}
		if m, ok := modePhrases[[2]string{w, word(i + 1)}]; ok {
			add(m)
			continue
		}
		m, ok := modeWords[w]
		if !ok || w == "check" && !checkBeside[word(i-1)] && !checkBeside[word(i+1)] {
			continue
		}
		add(m)
	}
	return out
}
