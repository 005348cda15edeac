package orders

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/munshi/munshi/intent"
)

// An order message often says more than who, what, how many and how they
// pay: "12+1 scheme lagana", "kal subah 10 baje se pehle deliver karna".
// Nothing reads those words, but they are the salesperson's to give and
// accounts' to act on, so they go with the order as they were written.

// MaxInstructions bounds the instructions an order keeps, in characters.
const MaxInstructions = 300

// chatter are the words of an order message that instruct nobody: who is
// greeted, the order's own verbs and the words that join its parts.
var chatter = words(`
	hi hello namaste namaskar pranam ji sir bhai bhaiya madam sahab boss dear team bro
	good morning evening
	please pls plz kindly ok okay thanks thank
	order orders maal saman samaan
	bhejo bhej bhejna bhejdo bhejiye dedo de do dena dijiye lena lo chahiye karo kar send give book likho likh note
	hai h hain tha
`)

// instructions returns the clauses of the message that name nothing the
// order was read from (no product, customer, quantity taken, payment mode
// or question) and say something beyond chatter, joined by "; ". A clause
// ends at punctuation, a line break or a joining "aur"/"and".
func (r *reading) instructions() string {
	var out []string
	from := 0
	for i := 1; i <= len(r.toks); i++ {
		if i < len(r.toks) && !r.clauseBreak(i) {
			continue
		}
		if s := r.instruction(from, i); s != "" {
			out = append(out, s)
		}
		from = i
	}
	note := strings.Join(out, "; ")
	if utf8.RuneCountInString(note) > MaxInstructions {
		note = string([]rune(note)[:MaxInstructions-1]) + "…"
	}
	return note
}

// clauseBreak reports whether a new clause starts at token i.
func (r *reading) clauseBreak(i int) bool {
	gap := r.between(i-1, i)
	if strings.ContainsAny(gap, ",;.!?।\n\r–—") || strings.Contains(gap, " - ") {
		return true
	}
	return r.word(i) == "aur" || r.word(i) == "and"
}

// instruction is the source text of tokens [from, to) when they form an
// instruction, else "".
func (r *reading) instruction(from, to int) string {
	said, corrects := 0, false
	for i := from; i < to; i++ {
		w := r.word(i)
		if r.used[i] {
			return ""
		}
		switch r.kind(i) {
		case intent.EntityProduct, intent.EntityCustomer, intent.EntityOrderRef, intent.EntityUnit, intent.EntitySize:
			return "" // the goods, their quantities, who and which order
		}
		if correctionWords[w] && (w != "no" || r.kind(i+1) != intent.EntityNumber) { // "PO no 4521"
			corrects = true
			continue
		}
		if _, pay := paymentWords[w]; pay || i+1 < to && paymentPhrases[[2]string{w, r.word(i + 1)}] != "" {
			return ""
		}
		if !chatter[w] && !separators[w] && !fillers[w] && strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			said++
		}
	}
	// "maggi nahi": one word taken back is no instruction.
	if said == 0 || to-from < 2 || corrects && said == 1 {
		return ""
	}
	for separators[r.word(from)] { // "… aur kal deliver karna" begins at kal
		from++
	}
	return r.span(from, to)
}
