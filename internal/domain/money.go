package domain

import (
	"fmt"
	"strconv"
	"strings"
)

// Paise is an amount of money in paise (1/100 rupee). All money in Munshi is
// integer paise so that totals add up exactly.
type Paise int64

// Rupees returns p as a whole-rupee amount, rounding half away from zero.
func (p Paise) Rupees() int64 {
	if p < 0 {
		return -int64((-p + 50) / 100)
	}
	return int64((p + 50) / 100)
}

// String formats p as rupees with Indian digit grouping: ₹1,23,45,678.50.
// Whole-rupee amounts drop the paise: ₹25,000.
func (p Paise) String() string {
	neg := p < 0
	if neg {
		p = -p
	}
	rupees, paise := int64(p)/100, int64(p)%100
	s := "₹" + GroupIndian(rupees)
	if paise != 0 {
		s += fmt.Sprintf(".%02d", paise)
	}
	if neg {
		s = "-" + s
	}
	return s
}

// GroupIndian writes n with Indian digit grouping: the last three digits,
// then groups of two (12,34,567).
func GroupIndian(n int64) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := strconv.FormatInt(n, 10)
	if len(s) > 3 {
		head, tail := s[:len(s)-3], s[len(s)-3:]
		var parts []string
		for len(head) > 2 {
			parts = append([]string{head[len(head)-2:]}, parts...)
			head = head[:len(head)-2]
		}
		parts = append([]string{head}, parts...)
		s = strings.Join(parts, ",") + "," + tail
	}
	if neg {
		s = "-" + s
	}
	return s
}

// ParseRupees reads a rupee amount such as "92", "92.5", "1,20,000.00" or
// "₹ 25000" into paise. More than two decimal places is an error rather than
// a silent rounding.
func ParseRupees(s string) (Paise, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimPrefix(t, "₹")
	t = strings.TrimPrefix(t, "Rs.")
	t = strings.TrimPrefix(t, "Rs")
	t = strings.ReplaceAll(strings.TrimSpace(t), ",", "")
	if t == "" {
		return 0, fmt.Errorf("domain: empty amount")
	}
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(t, "-")
	whole, frac, hasFrac := strings.Cut(t, ".")
	if whole == "" {
		whole = "0"
	}
	if hasFrac && (len(frac) == 0 || len(frac) > 2) {
		return 0, fmt.Errorf("domain: amount %q must have at most two decimal places", s)
	}
	for len(frac) < 2 {
		frac += "0"
	}
	if !allDigits(whole) || !allDigits(frac) {
		return 0, fmt.Errorf("domain: %q is not an amount in rupees", s)
	}
	r, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || r > 1e14 {
		return 0, fmt.Errorf("domain: amount %q is out of range", s)
	}
	f, _ := strconv.ParseInt(frac, 10, 64)
	p := Paise(r*100 + f)
	if neg {
		p = -p
	}
	return p, nil
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
