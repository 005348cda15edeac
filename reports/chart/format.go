package chart

import (
	"strconv"

	"github.com/munshi/munshi/internal/domain"
)

// ShortRupees writes an amount the way an axis or a bar end has room for,
// in Indian units: ₹850, ₹45K, ₹2.5L, ₹1.2Cr (1 lakh = 1,00,000 rupees,
// 1 crore = 1,00,00,000). At most one decimal, rounded half away from zero;
// a rounding that reaches the next unit moves to it (₹99,999 is ₹1L).
func ShortRupees(p domain.Paise) string { return short(int64(p), 100, "₹") }

// ShortCount writes a quantity the same way without the ₹: 850, 45K,
// 2.5L, 1.2Cr.
func ShortCount(n int64) string { return short(n, 1, "") }

// indianUnits are the steps of the short form above the base: thousand,
// lakh, crore.
var indianUnits = []struct {
	size   uint64 // in base units
	suffix string
}{{1e3, "K"}, {1e5, "L"}, {1e7, "Cr"}}

// short writes v, counted in 1/one of a base unit (paise: one = 100), in
// Indian units with symbol before it.
func short(v int64, one uint64, symbol string) string {
	sign := ""
	a := uint64(v) // two's complement: the magnitude even for MinInt64
	if v < 0 {
		sign, a = "-", -a
	}
	// Whole base units, rounded; a rounding up to a thousand carries on.
	whole := a/one + boolToUint(a%one*2 >= one)
	if whole == 0 {
		return symbol + "0" // -40 paise is ₹0, not -₹0
	}
	if whole < indianUnits[0].size {
		return sign + symbol + strconv.FormatUint(whole, 10)
	}
	for i, u := range indianUnits {
		tenth := u.size * one / 10
		tenths := a/tenth + boolToUint(a%tenth*2 >= tenth)
		last := i == len(indianUnits)-1
		if !last && tenths >= indianUnits[i+1].size/u.size*10 {
			continue // 99.96K rounds to 100K: write it as 1L
		}
		s := domain.GroupIndian(int64(tenths / 10))
		if d := tenths % 10; d != 0 {
			s += "." + strconv.FormatUint(d, 10)
		}
		return sign + symbol + s + u.suffix
	}
	panic("unreachable")
}

func boolToUint(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// exact writes a value in full for a tooltip: ₹12,34,567.89 or
// "2,400 bottles".
func (m Measure) exact(v int64) string {
	if m.money {
		return domain.Paise(v).String()
	}
	return domain.Units(v, m.Unit)
}

// short writes a value for an axis tick or a bar end.
func (m Measure) short(v int64) string {
	if m.money {
		return ShortRupees(domain.Paise(v))
	}
	return ShortCount(v)
}
