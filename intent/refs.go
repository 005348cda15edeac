package intent

import "strings"

// Order references as people write them, read as one word.

// joinOrderRefs makes "ORDER-123", "order #45" and "ORD-2024-07" one word,
// so that "approve ORDER-123" is not read as a new order, a draft's
// reference, "D-57" or "draft 57", the word "draft-57", and a payment's
// waiting for an owner, "PRP-12", the word "prp-12".
//
// A number another system gave an order ("T-6001", "SO-2231"), imported
// with the books' history, is one word too: a short prefix of letters no
// name, unit or spelling of Munshi's has, tight against its digits.
func joinOrderRefs(text string, raw []rawWord, known func(string) bool) []rawWord {
	out := raw[:0]
	for i := 0; i < len(raw); i++ {
		w := raw[i]
		if i+1 < len(raw) && booksRef(w.text, spacedRef(text, w, raw[i+1]), raw[i+1].text) &&
			(!known(w.text) || letterRef(w.text, text[w.end:raw[i+1].start], raw[i+1].text)) && !paperPrefixes[w.text] {
			ref := rawWord{w.text + "-" + raw[i+1].text, w.start, raw[i+1].end}
			for i++; i+1 < len(raw) && text[raw[i].end:raw[i+1].start] == "-" && digitsOnly(raw[i+1].text); i++ {
				ref.text, ref.end = ref.text+"-"+raw[i+1].text, raw[i+1].end // "T-2026-0042"
			}
			out = append(out, ref)
			continue
		}
		if i+1 < len(raw) && draftRef(w.text, text[w.end:raw[i+1].start], raw[i+1].text) {
			out = append(out, rawWord{"draft-" + raw[i+1].text, w.start, raw[i+1].end})
			i++
			continue
		}
		if i+1 < len(raw) && proposalRef(w.text, text[w.end:raw[i+1].start], raw[i+1].text) {
			out = append(out, rawWord{"prp-" + raw[i+1].text, w.start, raw[i+1].end})
			i++
			continue
		}
		switch w.text {
		case "order", "ord", "ordr", "odr":
		default:
			if ref, ok := gluedOrderRef(w.text); ok {
				w.text = ref
			} else if prefix, number, ok := gluedBooksRef(w.text); ok && !known(w.text) && !known(prefix) {
				w.text = prefix + "-" + number // "t7006"
			}
			out = append(out, w)
			continue
		}
		if i+1 >= len(raw) || !refSeparator(text[w.end:raw[i+1].start], true) || !refPart(raw[i+1].text) {
			out = append(out, w)
			continue
		}
		ref := "order-" + raw[i+1].text
		end := raw[i+1].end
		i++
		for i+1 < len(raw) && refSeparator(text[raw[i].end:raw[i+1].start], false) && refPart(raw[i+1].text) {
			ref += "-" + raw[i+1].text
			end = raw[i+1].end
			i++
		}
		out = append(out, rawWord{ref, w.start, end})
	}
	return out
}

// booksRef reports an order number of the books written as prefix, sep,
// number: one to four letters, a hyphen, three to ten digits.
func booksRef(prefix, sep, number string) bool {
	// "T-7008"; also "T 7008", a single letter and four digits or more,
	// which no quantity or amount is written as.
	spaced := sep == " " && len(prefix) == 1 && len(number) >= 4
	if sep != "-" && !spaced || len(prefix) == 0 || len(prefix) > 4 || len(number) < 3 || len(number) > 10 {
		return false
	}
	return strings.Trim(prefix, "abcdefghijklmnopqrstuvwxyz") == "" && digitsOnly(number)
}

func digitsOnly(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// spacedRef is what separates w from the word after it, where a space
// counts only after a capital letter as written ("T 7008"): "a 5000" and
// "x 1000" are words and numbers.
func spacedRef(text string, w, next rawWord) string {
	sep := text[w.end:next.start]
	if sep == " " && (w.start >= len(text) || text[w.start] < 'A' || text[w.start] > 'Z') {
		return ""
	}
	return sep
}

// letterRef reports a books' order number whose letters Munshi also
// knows as a word, written with its hyphen and four digits or more:
// "G-7003", where a catalog's "Parle-G" makes g a word, and "KB-5102",
// where "kb" is how "kab" (when) is typed. No quantity is written so;
// "x" is times, "d" a draft, and a paper's number is marked by words of
// its own ("chq no-220915", "UTR-556677").
func letterRef(prefix, sep, number string) bool {
	return prefix != "x" && prefix != "d" && !notBooksPrefixes[prefix] && sep == "-" && len(number) >= 4
}

// notBooksPrefixes go before an amount or a paper's number, or are
// Munshi's own "ORD-1042", read as such.
var notBooksPrefixes = words("rs inr no chq ref utr txn upi neft rtgs imps order ord ordr odr")

// paperPrefixes begin the numbers of papers that are not orders: a goods
// received note's "GRN-4471", an invoice's "INV-2291".
var paperPrefixes = words("grn inv")

// isBooksRef reports a word joinOrderRefs made of a books' order number.
func isBooksRef(w string) bool {
	prefix, rest, ok := strings.Cut(w, "-")
	number, _, _ := strings.Cut(rest, "-")
	return ok && booksRef(prefix, "-", number) && digitsOnly(strings.ReplaceAll(rest, "-", ""))
}

// draftRef reports a draft's reference written as word, sep, number:
// "D-57", "d#57", "draft 57". The number is digits only, so "D-Mart"
// stays a name.
func draftRef(word, sep, number string) bool {
	if number == "" || strings.Trim(number, "0123456789") != "" {
		return false
	}
	switch word {
	case "d":
		return sep != " #" && refSeparator(sep, true)
	case "draft":
		return sep == " " || refSeparator(sep, true)
	}
	return false
}

// proposalRef reports a proposal's reference written as word, sep,
// number: "PRP-12", "prp 12", "PRP#12".
func proposalRef(word, sep, number string) bool {
	if word != "prp" || number == "" || strings.Trim(number, "0123456789") != "" {
		return false
	}
	return sep == " " || refSeparator(sep, true)
}

// gluedOrderRef reads "ORD1042" and "order1042", a reference typed
// without its hyphen, as "order-1042".
func gluedOrderRef(w string) (string, bool) {
	for _, p := range [...]string{"order", "ordr", "ord", "odr"} {
		if n, ok := strings.CutPrefix(w, p); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			return "order-" + n, true
		}
	}
	return "", false
}

// gluedBooksRef splits a books' order number typed without its hyphen,
// one letter and four digits or more ("t7006"), as booksRef accepts it
// spaced: no quantity, amount or size is written so. An x is times: "5
// ctn x1000". A letter typed again and again is one, as canonicalise
// reads it: "kkk0000" is "k0000".
func gluedBooksRef(w string) (prefix, number string, ok bool) {
	w = squeeze(w)
	if len(w) < 5 || w[0] < 'a' || w[0] > 'z' || w[0] == 'x' || !digitsOnly(w[1:]) || !booksRef(w[:1], "-", w[1:]) {
		return "", "", false
	}
	return w[:1], w[1:], true
}

// refSeparator accepts what joins "ORDER" to its number: a hyphen, a hash
// or an underscore, written tight ("ORDER-123", "order#45") or as " #45";
// between later parts only a hyphen. A colon or a spaced hyphen does not
// join: "Order: 5 ctn GC" and "order - 5 ctn" are orders, not references.
func refSeparator(sep string, first bool) bool {
	if !first {
		return sep == "-"
	}
	switch sep {
	case "-", "#", "_", " #", "-#", "#-":
		return true
	}
	return false
}

func refPart(w string) bool {
	digit := false
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z':
		default:
			return false
		}
	}
	return digit
}
