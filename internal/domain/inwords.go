package domain

import "strings"

// InWords writes an amount as a cheque does, in Indian numbering:
// ₹1,20,00,000 is "one crore twenty lakh rupees", ₹1,30,000.50 "one lakh
// thirty thousand rupees and fifty paise". Read beside the figures, it
// makes a slip of the finger (a crore for a lakh) plain to see. Beyond
// ninety-nine crore the crores are counted the same way: "ten thousand
// crore".
func InWords(p Paise) string {
	// In uint64, so that the most negative amount has a magnitude too.
	n := uint64(p)
	sign := ""
	if p < 0 {
		n, sign = -n, "minus "
	}
	rupees, paise := n/100, n%100
	switch {
	case paise == 0:
		return sign + counted(rupees, "rupee", "rupees")
	case rupees == 0:
		return sign + counted(paise, "paisa", "paise")
	}
	return sign + counted(rupees, "rupee", "rupees") + " and " + counted(paise, "paisa", "paise")
}

func counted(n uint64, one, many string) string {
	if n == 1 {
		return "one " + one
	}
	return numberWords(n) + " " + many
}

var (
	ones = [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}
	tens = [...]string{2: "twenty", 3: "thirty", 4: "forty", 5: "fifty", 6: "sixty", 7: "seventy", 8: "eighty", 9: "ninety"}
)

// numberWords writes n in Indian numbering: crore (1,00,00,000), lakh
// (1,00,000), thousand, hundred.
func numberWords(n uint64) string {
	if n == 0 {
		return ones[0]
	}
	var out []string
	if c := n / 1_00_00_000; c > 0 {
		out = append(out, numberWords(c), "crore")
		n %= 1_00_00_000
	}
	for _, scale := range [...]struct {
		size uint64
		name string
	}{{1_00_000, "lakh"}, {1_000, "thousand"}, {100, "hundred"}} {
		if k := n / scale.size; k > 0 {
			out = append(out, belowHundred(k), scale.name)
			n %= scale.size
		}
	}
	if n > 0 {
		out = append(out, belowHundred(n))
	}
	return strings.Join(out, " ")
}

func belowHundred(n uint64) string {
	if n < 20 {
		return ones[n]
	}
	if n%10 == 0 {
		return tens[n/10]
	}
	return tens[n/10] + "-" + ones[n%10]
}
