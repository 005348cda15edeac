package erpsync

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/intake"
)

// How a source's values are read. A source gives each value normalised
// (erp.Source.Query): nil, int64, float64, string (text, and decimals as
// their exact text), bool, time.Time, and []byte for true binaries.

// Bounds of what a row may bring.
const (
	maxQty            = 1_000_000_000 // base units of one row
	firstYear         = 1980
	lastYear          = 2099
	watermarkLayout   = "2006-01-02 15:04:05"
	maxMoney          = intake.MaxBalance
	qtyTolerance      = 1_000_000 // a quantity within a millionth of a whole number is that number
	wholeRupeesDigits = 15
)

// textOf is a value as text: numbers as their shortest exact decimal,
// times as 2006-01-02 15:04:05, binaries only when they are UTF-8 text.
func textOf(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return x, nil
	case []byte:
		if !utf8.Valid(x) {
			return "", errors.New("binary data, not text")
		}
		return string(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "", fmt.Errorf("%v is not a number", x)
		}
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	case bool:
		return strconv.FormatBool(x), nil
	case time.Time:
		return x.Format(watermarkLayout), nil
	}
	return "", fmt.Errorf("a value of type %T", v)
}

// transform applies a field's transforms, in order.
func transform(s string, ts []string) string {
	for _, t := range ts {
		switch t {
		case "trim":
			s = strings.TrimSpace(s)
		case "upper":
			s = strings.ToUpper(s)
		case "lower":
			s = strings.ToLower(s)
		case "title":
			s = title(s)
		case "digits":
			var b strings.Builder
			for i, r := range strings.TrimSpace(s) {
				if r >= '0' && r <= '9' || r == '+' && i == 0 {
					b.WriteRune(r)
				}
			}
			s = b.String()
		case "collapse":
			s = strings.Join(strings.Fields(s), " ")
		}
	}
	return s
}

// title capitalises each word's first letter and lowers the rest.
func title(s string) string {
	var b strings.Builder
	start := true
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) && start:
			b.WriteRune(unicode.ToUpper(r))
			start = false
		case unicode.IsLetter(r):
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
			start = !unicode.IsDigit(r) && r != '\''
		}
	}
	return b.String()
}

// decimal is an exact decimal number as text: sign, digits before the
// point and after it.
type decimal struct {
	neg         bool
	whole, frac string
}

func (d decimal) String() string {
	s := d.whole
	if s == "" {
		s = "0"
	}
	if d.frac != "" {
		s += "." + d.frac
	}
	if d.neg {
		s = "-" + s
	}
	return s
}

// decimalOf reads a number exactly. Text may group digits with commas,
// Indian (1,23,456.00) or Western (123,456.00) style, but the groups must
// be whole; money may start with ₹, Rs or INR. Floats are read as their
// shortest exact decimal (92.1, not 92.09999…), so a float column holding
// paise-exact amounts reads exactly.
func decimalOf(v any, money bool) (decimal, error) {
	switch x := v.(type) {
	case int64:
		d := decimal{neg: x < 0, whole: strconv.FormatInt(x, 10)}
		d.whole = strings.TrimPrefix(d.whole, "-")
		return d, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return decimal{}, fmt.Errorf("%v is not a number", x)
		}
		return decimalText(strconv.FormatFloat(x, 'f', -1, 64), false)
	case string:
		return decimalText(x, money)
	case bool:
		return decimal{}, fmt.Errorf("%v is not a number", x)
	case time.Time:
		return decimal{}, errors.New("a date is not a number")
	case []byte:
		return decimal{}, errors.New("binary data is not a number")
	}
	return decimal{}, fmt.Errorf("a value of type %T is not a number", v)
}

func decimalText(s string, money bool) (decimal, error) {
	orig := s
	s = strings.TrimSpace(s)
	var d decimal
	sign := func() {
		if t, ok := strings.CutPrefix(s, "-"); ok {
			d.neg, s = true, strings.TrimSpace(t)
		} else if t, ok := strings.CutPrefix(s, "+"); ok {
			s = strings.TrimSpace(t)
		}
	}
	sign()
	if money {
		for _, c := range []string{"₹", "Rs.", "Rs", "RS.", "RS", "rs.", "rs", "INR", "inr"} {
			if t, ok := strings.CutPrefix(s, c); ok {
				s = strings.TrimSpace(t)
				if !d.neg {
					sign()
				}
				break
			}
		}
	}
	if s == "" {
		return d, fmt.Errorf("%q is not a number", orig)
	}
	whole, frac, point := strings.Cut(s, ".")
	if point && (frac == "" || !digits(frac)) || whole == "" && !point {
		return d, fmt.Errorf("%q is not a number", orig)
	}
	if strings.Contains(whole, ",") {
		if !grouped(whole) {
			return d, fmt.Errorf("%q groups its digits wrongly (write 1,23,456.00 or 123,456.00)", orig)
		}
		whole = strings.ReplaceAll(whole, ",", "")
	}
	if whole != "" && !digits(whole) {
		return d, fmt.Errorf("%q is not a number", orig)
	}
	d.whole = strings.TrimLeft(whole, "0")
	d.frac = frac
	return d, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// grouped reports whether comma-separated digits group as Indian
// (12,34,567) or Western (1,234,567) numbers do.
func grouped(s string) bool {
	g := strings.Split(s, ",")
	first, last, mid := g[0], g[len(g)-1], g[1:len(g)-1]
	for _, x := range g {
		if !digits(x) {
			return false
		}
	}
	if len(last) != 3 || len(first) < 1 || len(first) > 3 {
		return false
	}
	indian, western := len(first) <= 2 || len(mid) == 0, true
	for _, x := range mid {
		indian = indian && len(x) == 2
		western = western && len(x) == 3
	}
	return indian || western
}

// readMoney reads an amount, in rupees or paise, into paise exactly: a
// rupee amount with a third decimal that is not zero ("1234.505") is
// refused, never rounded; "1234.5000" (a money column's four places) is
// ₹1,234.50.
func readMoney(v any, unit string) (domain.Paise, error) {
	d, err := decimalOf(v, true)
	if err != nil {
		return 0, err
	}
	frac := strings.TrimRight(d.frac, "0")
	places := 2
	if unit == Paise {
		places = 0
	}
	if len(frac) > places {
		if unit == Paise {
			return 0, fmt.Errorf("%s is not a whole number of paise", d)
		}
		return 0, fmt.Errorf("%s has more than two decimal places: not an amount to the paisa", d)
	}
	frac += strings.Repeat("0", places-len(frac))
	if len(d.whole) > wholeRupeesDigits {
		return 0, fmt.Errorf("%s is more than %s", d, maxMoney)
	}
	w := int64(0)
	if d.whole != "" {
		w, _ = strconv.ParseInt(d.whole, 10, 64)
	}
	f := int64(0)
	if frac != "" {
		f, _ = strconv.ParseInt(frac, 10, 64)
	}
	p := domain.Paise(w)
	if unit != Paise {
		p = domain.Paise(w*100 + f)
	}
	if p > maxMoney {
		return 0, fmt.Errorf("%s is more than %s", d, maxMoney)
	}
	if d.neg {
		p = -p
	}
	return p, nil
}

// readQty reads a quantity times factor (1 when 0) into whole base
// units: a result within a millionth of a whole number rounds to it (half
// away from zero); anything else is refused.
func readQty(v any, factor float64) (int64, error) {
	d, err := decimalOf(v, false)
	if err != nil {
		return 0, err
	}
	x, ok := new(big.Rat).SetString(d.String())
	if !ok {
		return 0, fmt.Errorf("%s is not a number", d)
	}
	if factor != 0 && factor != 1 {
		f, ok := new(big.Rat).SetString(strconv.FormatFloat(factor, 'f', -1, 64))
		if !ok {
			return 0, fmt.Errorf("factor %v is not a number", factor)
		}
		x.Mul(x, f)
	}
	abs := new(big.Rat).Abs(x)
	half := new(big.Rat).Add(abs, big.NewRat(1, 2))
	n := new(big.Int).Quo(half.Num(), half.Denom())
	off := new(big.Rat).Sub(abs, new(big.Rat).SetInt(n))
	if off.Abs(off).Cmp(big.NewRat(1, qtyTolerance)) > 0 {
		if factor != 0 && factor != 1 {
			return 0, fmt.Errorf("%s × factor %v is %s, not a whole number of base units", d, factor, x.FloatString(3))
		}
		return 0, fmt.Errorf("%s is not a whole number of base units", d)
	}
	if !n.IsInt64() || n.Int64() > maxQty {
		return 0, fmt.Errorf("%s is more than %d base units", d, maxQty)
	}
	q := n.Int64()
	if x.Sign() < 0 {
		q = -q
	}
	return q, nil
}

// readPercent reads a GST rate: "18", "18.00", "2.5%", 0.25.
func readPercent(v any) (domain.GSTRate, error) {
	if s, ok := v.(string); ok {
		v = strings.TrimSuffix(strings.TrimSpace(s), "%")
	}
	d, err := decimalOf(v, false)
	if err != nil {
		return 0, err
	}
	frac := strings.TrimRight(d.frac, "0")
	if d.neg || len(frac) > 2 || len(d.whole) > 3 {
		return 0, fmt.Errorf("%s is not a percentage from 0 to 100 with at most two decimals", d)
	}
	frac += strings.Repeat("0", 2-len(frac))
	w, _ := strconv.ParseInt("0"+d.whole, 10, 64)
	f, _ := strconv.ParseInt(frac, 10, 64)
	r := domain.GSTRate(w*100 + f)
	if r > 10000 {
		return 0, fmt.Errorf("%s is more than 100%%", d)
	}
	return r, nil
}

// Date layouts ERPs write, day before month as India writes it
// (02/01/2006 is the 2nd of January). Single digits are read too.
var (
	dateLayouts = []string{"2006-1-2", "2-1-2006", "2/1/2006", "2.1.2006", "2-Jan-2006", "2 Jan 2006", "2-January-2006", "2 January 2006", "2006/1/2"}
	timeLayouts = []string{"", " 15:04:05", " 15:04", "T15:04:05", "T15:04", " 3:04:05 PM", " 3:04 PM", " 3:04:05PM", " 3:04PM"}
	zoneLayouts = []string{time.RFC3339Nano, "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05 Z07:00", "2006-01-02 15:04:05 -0700", "2006-01-02T15:04:05-0700"}
)

// readDate reads a date, or a date and time, as the ERP's wall clock in
// loc. A time.Time in UTC is how drivers give a column without a zone (a
// DATETIME): its wall clock is read in loc. One in any other zone is an
// instant and stays one. Text names its zone or is read in loc.
func readDate(v any, loc *time.Location) (time.Time, error) {
	var t time.Time
	switch x := v.(type) {
	case time.Time:
		if x.Location() == time.UTC {
			t = time.Date(x.Year(), x.Month(), x.Day(), x.Hour(), x.Minute(), x.Second(), x.Nanosecond(), loc)
		} else {
			t = x.In(loc)
		}
	case string:
		var ok bool
		if t, ok = parseDateText(strings.TrimSpace(x), loc); !ok {
			return time.Time{}, fmt.Errorf("%q is not a date such as 2026-03-05, 05-03-2026 or 05/03/2026 (day first), with a time or not", x)
		}
	case nil:
		return time.Time{}, errors.New("no date")
	default:
		return time.Time{}, fmt.Errorf("%v is not a date", v)
	}
	if t.Year() < firstYear || t.Year() > lastYear {
		return time.Time{}, fmt.Errorf("%s is not between %d and %d", t.Format(time.DateOnly), firstYear, lastYear)
	}
	return t, nil
}

func parseDateText(s string, loc *time.Location) (time.Time, bool) {
	if s == "" || len(s) > 64 {
		return time.Time{}, false
	}
	for _, l := range zoneLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.In(loc), true
		}
	}
	for _, d := range dateLayouts {
		for _, tl := range timeLayouts {
			if t, err := time.ParseInLocation(d+tl, s, loc); err == nil {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

// readPhone reads a phone number into E.164 (domain.ParsePhone). An
// Indian mobile number written without the country code (98100 00001,
// 098100 00001, 91 98100 00001) is given +91.
func readPhone(s string) (string, error) {
	var digitsOnly strings.Builder
	plain := true
	for _, r := range strings.TrimSpace(s) {
		switch {
		case r >= '0' && r <= '9':
			digitsOnly.WriteRune(r)
		case r == ' ' || r == '-' || r == '(' || r == ')' || r == '.':
		default:
			plain = false
		}
	}
	d := digitsOnly.String()
	if plain {
		switch {
		case len(d) == 10 && d[0] >= '6':
			s = "+91" + d
		case len(d) == 11 && d[0] == '0' && d[1] >= '6':
			s = "+91" + d[1:]
		case len(d) == 12 && strings.HasPrefix(d, "91") && d[2] >= '6':
			s = "+" + d
		}
	}
	p, err := domain.ParsePhone(s)
	if err != nil {
		return "", fmt.Errorf("%q is not a phone number in E.164 form, such as +919810000001", s)
	}
	return p, nil
}

// parseStatus reads an order's status as history keeps it.
func parseStatus(s string) (domain.OrderStatus, error) {
	switch st := domain.OrderStatus(strings.ToLower(strings.TrimSpace(s))); st {
	case domain.OrderCommitted, domain.OrderDelivered, domain.OrderCancelled:
		return st, nil
	case "canceled":
		return domain.OrderCancelled, nil
	}
	return "", fmt.Errorf("%q is not committed, delivered or cancelled (map the ERP's statuses under values)", s)
}

// splitModes splits a list of payment modes on '|' or ','.
func splitModes(s string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == '|' || r == ',' }) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// splitList splits a '|'-separated list, dropping empty parts.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "|") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
