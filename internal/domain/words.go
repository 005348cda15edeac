package domain

import "strings"

// Plural writes a unit word for n of them: "bottle" → "bottles", "box" →
// "boxes"; "dozen" and words already ending in s stay as they are.
func Plural(word string, n int64) string {
	if n == 1 || n == -1 || word == "" || strings.HasSuffix(word, "s") {
		return word
	}
	switch word {
	case "box":
		return "boxes"
	case "dozen":
		return "dozen"
	case "pouch":
		return "pouches"
	}
	return word + "s"
}

// Units writes a quantity in a unit with Indian digit grouping: "2,400
// bottles", "1 carton".
func Units(n int64, unit string) string {
	if unit == "" {
		return GroupIndian(n)
	}
	return GroupIndian(n) + " " + Plural(unit, n)
}
