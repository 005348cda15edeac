package chart

import (
	"math"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

func TestShortRupeesInIndianUnits(t *testing.T) {
	for _, tc := range []struct {
		rupees float64 // for reading; the test uses paise
		paise  int64
		want   string
	}{
		{0, 0, "₹0"},
		{0.4, 40, "₹0"},
		{0.5, 50, "₹1"},
		{850, 85000, "₹850"},
		{999, 99900, "₹999"},
		{999.49, 99949, "₹999"},
		{999.5, 99950, "₹1K"},
		{1000, 100000, "₹1K"},
		{1049, 104900, "₹1K"},
		{1050, 105000, "₹1.1K"},
		{1500, 150000, "₹1.5K"},
		{45000, 4500000, "₹45K"},
		{99949, 9994900, "₹99.9K"},
		{99950, 9995000, "₹1L"},
		{99999, 9999900, "₹1L"},
		{100000, 10000000, "₹1L"},
		{100000.01, 10000001, "₹1L"},
		{250000, 25000000, "₹2.5L"},
		{1234567.89, 123456789, "₹12.3L"},
		{9949999, 994999900, "₹99.5L"},
		{9999999, 999999900, "₹1Cr"},
		{10000000, 1000000000, "₹1Cr"},
		{12000000, 1200000000, "₹1.2Cr"},
		{1234567890, 123456789000, "₹123.5Cr"},
		{123456789000, 12345678900000, "₹12,345.7Cr"},
		{-850, -85000, "-₹850"},
		{-0.4, -40, "₹0"},
		{-0.5, -50, "-₹1"},
		{-45000, -4500000, "-₹45K"},
		{-99999, -9999900, "-₹1L"},
		{-100000, -10000000, "-₹1L"},
		{-9999999, -999999900, "-₹1Cr"},
		{-10000000, -1000000000, "-₹1Cr"},
	} {
		if got := ShortRupees(domain.Paise(tc.paise)); got != tc.want {
			t.Errorf("ShortRupees(₹%v) = %q, want %q", tc.rupees, got, tc.want)
		}
	}
}

func TestShortCountInIndianUnits(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0", 7: "7", 999: "999", 1000: "1K", 2400: "2.4K", 12500: "12.5K",
		99999: "1L", 100000: "1L", 150000: "1.5L", 9999999: "1Cr", 10000000: "1Cr",
		-2400: "-2.4K", -100000: "-1L",
	} {
		if got := ShortCount(n); got != want {
			t.Errorf("ShortCount(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestShortFormsAtTheEndsOfInt64(t *testing.T) {
	for _, v := range []int64{math.MaxInt64, math.MinInt64, math.MinInt64 + 1} {
		for _, s := range []string{ShortRupees(domain.Paise(v)), ShortCount(v)} {
			if !strings.HasSuffix(s, "Cr") || (v < 0) != strings.HasPrefix(s, "-") {
				t.Errorf("%d written %q", v, s)
			}
		}
	}
	if got := ShortCount(math.MaxInt64); got != "9,22,33,72,03,685.5Cr" {
		t.Errorf("ShortCount(MaxInt64) = %q", got)
	}
}

func TestExactFiguresForTooltips(t *testing.T) {
	for _, tc := range []struct {
		m    Measure
		v    int64
		want string
	}{
		{Money(), 123456789, "₹12,34,567.89"},
		{Money(), 2500000, "₹25,000"},
		{Money(), -5050, "-₹50.50"},
		{Quantity("bottle"), 2400, "2,400 bottles"},
		{Quantity("bottle"), 1, "1 bottle"},
		{Quantity(""), 240000, "2,40,000"},
	} {
		if got := tc.m.exact(tc.v); got != tc.want {
			t.Errorf("exact(%d) in %v = %q, want %q", tc.v, tc.m, got, tc.want)
		}
	}
}
