package orders

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/munshi/munshi/intent"
)

// customerSpan finds a name the message gives for its customer after "for"
// or before "ke liye", "ko" or ":", whether or not it is known; the tokens
// of an unknown one are not read as an unknown product.
func (p *Parser) customerSpan(r *reading) (name string) {
	if s := r.unlistedName(forWords, forMarks); s != "" {
		return s
	}
	// "Verma Stores: 5 ctn GC".
	if head, _, ok := strings.Cut(r.text, ":"); ok && utf8.RuneCountInString(head) <= 40 &&
		!strings.ContainsAny(head, "0123456789\n") {
		var in []int
		for i, t := range r.toks {
			if t.End <= len(head) {
				in = append(in, i)
			}
		}
		if len(in) > 0 {
			all := true
			for _, i := range in {
				all = all && r.plain(i)
			}
			if all {
				return r.claim(in[0], in[len(in)-1]+1)
			}
		}
	}
	return ""
}

// unlisted is the name nobody listed that a record gives: as an order
// gives it, else after one of after's words or before one of marks
// ("Payment of 1,50,000 from Kapoor Supermart", "Laxmi Stores ne 6,500
// cash diye", "Kohli Traders pe maal utaar diya").
func (p *Parser) unlisted(r *reading, after, marks map[string]bool) string {
	if s := p.customerSpan(r); s != "" {
		return s
	}
	return r.unlistedName(after, marks)
}

// The words around a name nobody listed: after one of the first, or
// before one of the second ("for Verma Stores", "Verma ji ko").
var (
	forWords, forMarks    = words("for"), words("liye keliye ko")
	payerFrom, payerMarks = words("from"), words("ne se")
	placeAt, placeMarks   = words("to at"), words("pe par me mein")
)

// unlistedName claims the first name of up to three plain words after
// one of after's words, or before one of marks ("Verma ji ko": the
// honorific belongs to the name; "Verma ke liye": so does nothing).
func (r *reading) unlistedName(after, marks map[string]bool) string {
	toks := r.toks
	for i, t := range toks {
		switch {
		case after[t.Text]:
			j := i + 1
			for j < len(toks) && j < i+4 && r.plain(j) && !r.newline(j-1, j) {
				j++
			}
			if s := r.claim(i+1, j); s != "" {
				return s
			}
		case marks[t.Text]:
			last := i
			if last > 0 && toks[last-1].Text == "ke" {
				last--
			}
			end := last
			for end > 0 && honorifics[toks[end-1].Text] {
				end--
			}
			j := end
			for j > 0 && j > end-3 && r.plain(j-1) && !r.newline(j-1, j) {
				j--
			}
			if j < end {
				if s := r.claim(j, last); s != "" {
					return s
				}
			}
		}
	}
	return ""
}

// customer settles who the order is for from the customers the message
// names: one is the customer; several, or a name customers share, are
// asked about; none is asked for, quoting the name the message gave.
func (p *Parser) customer(r *reading, named string, out *Parsed) {
	ids := map[string]bool{}
	var shared [][]string
	strong := false
	for _, e := range r.ents {
		strong = strong || e.Kind == intent.EntityCustomer && !e.Weak
	}
	for _, e := range r.ents {
		if e.Kind != intent.EntityCustomer || e.Weak && strong {
			// "Ram ram bhai, Sharma ko …": a greeting word beside a
			// customer's full name is a greeting.
			continue
		}
		if len(e.IDs) > 1 {
			if fit := p.narrowCustomer(r, e); len(fit) == 1 {
				ids[fit[0]] = true
			} else {
				shared = append(shared, e.IDs)
			}
			continue
		}
		ids[e.ID] = true
	}
	// A shared name that a named customer settles ("Gupta Supermart …
	// Gupta ji") adds nothing.
	var open [][]string
	for _, s := range shared {
		settled := false
		for _, id := range s {
			settled = settled || ids[id]
		}
		if !settled {
			open = append(open, s)
		}
	}
	switch {
	case len(ids) == 1 && len(open) == 0:
		for id := range ids {
			out.CustomerID = id
		}
	case len(ids) >= 1:
		cands := map[string]bool{}
		for id := range ids {
			cands[id] = true
		}
		for _, s := range open {
			for _, id := range s {
				cands[id] = true
			}
		}
		for id := range cands {
			out.Candidates = append(out.Candidates, id)
		}
		sort.Strings(out.Candidates)
		out.ask(Ask{Slot: SlotCustomer, Options: out.Candidates,
			Text: "This message names more than one customer. Which one is the order for: " + p.candidateList(out.Candidates, true) + "?"})
	case len(open) > 0:
		seen := map[string]bool{}
		for _, s := range open {
			for _, id := range s {
				if !seen[id] {
					seen[id] = true
					out.Candidates = append(out.Candidates, id)
				}
			}
		}
		out.ask(Ask{Slot: SlotCustomer, Options: out.Candidates, Text: "Which one do you mean: " + p.candidateList(out.Candidates, true) + "?"})
	default:
		if named != "" {
			out.ask(Ask{Slot: SlotCustomer, Words: named, Text: fmt.Sprintf("I don't know a customer called %q. Which customer is this order for? (Or ask the office to add them.)", named)})
		} else if lead := leadingName(r); lead != "" {
			out.ask(Ask{Slot: SlotCustomer, Words: lead, Text: fmt.Sprintf("Which customer is this order for? I don't know a customer called %q.", lead)})
		} else {
			out.ask(Ask{Slot: SlotCustomer, Text: "Which customer is this order for?"})
		}
	}
}

// narrowCustomer returns the customers sharing a name whose full name the
// next words continue: "Jain Sanitary" is Jain Sanitary and Paints, not
// Jain Brothers. A name of several words that starts only one customer's
// name is that customer's, though the normaliser offered both ("sharma
// general" of Sharma General Store and Sharma Hardware).
func (p *Parser) narrowCustomer(r *reading, e intent.Entity) []string {
	said := make([]string, 0, e.End-e.Start)
	for i := e.Start; i < e.End; i++ {
		said = append(said, r.word(i))
	}
	var fit []string
	for _, id := range e.IDs {
		for _, name := range p.customerNames[id] {
			if continues(r, said, e.End, name) || (len(said) > 1 && continues(r, said[:len(said)-1], e.End, name)) ||
				len(said) > 1 && startsName(said, name) {
				fit = append(fit, id)
				break
			}
		}
	}
	return fit
}

// startsName reports whether name starts with the words said.
func startsName(said, name []string) bool {
	if len(name) < len(said) {
		return false
	}
	for k, w := range said {
		if name[k] != w {
			return false
		}
	}
	return true
}

// continues reports whether name starts with the words said and goes on
// with the message's words from token next.
func continues(r *reading, said []string, next int, name []string) bool {
	if len(name) <= len(said) {
		return false
	}
	for k, w := range said {
		if name[k] != w {
			return false
		}
	}
	return next < len(r.toks) && r.ent[next] < 0 && r.word(next) == name[len(said)]
}

// leadingName returns the unknown words a message starts with when a
// product or quantity follows them: "Verma 5 ctn GC" names Verma.
func leadingName(r *reading) string {
	j := 0
	for j < len(r.toks) && j < 3 && r.plain(j) && !r.newline(j-1, j) {
		j++
	}
	if j == 0 || j >= len(r.toks) {
		return ""
	}
	switch r.kind(j) {
	case intent.EntityNumber, intent.EntityProduct, intent.EntityUnit:
		return r.span(0, j)
	}
	return ""
}
