package orders

// bindQuantities gives each product the quantity written beside it. The
// message's style decides which way quantities bind first: "5 carton GC"
// (quantity first) or "GC 5 carton" (product first); a second pass binds
// what the style missed ("GC 5 carton aur 10 phenyl").
func bindQuantities(r *reading, ms []*mention, qs []*quantity, skip []bool) {
	// A size that is a quantity binds to its product first.
	for _, q := range qs {
		if q.measure == "" {
			continue
		}
		if q.of != nil {
			q.of.qs, q.used = append(q.of.qs, q), true
			continue
		}
		for _, m := range ms {
			if beside(skip, m, q) {
				m.qs, q.used = append(m.qs, q), true
				break
			}
		}
	}
	// Which comes first, the name or its count, is settled by the first
	// count written, a weight bound above included: "20 kg butter paper,
	// 2 carton tissue" counts before its names throughout.
	var firstQ *quantity
	for _, q := range qs {
		if !q.used || q.measure != "" {
			firstQ = q
			break
		}
	}
	productFirst := len(ms) > 0 && firstQ != nil && ms[0].start < firstQ.start
	for _, m := range ms {
		if len(m.qs) > 0 {
			continue
		}
		if productFirst {
			for _, q := range qs {
				if !q.used && follows(skip, m, q) {
					m.qs, q.used = append(m.qs, q), true
					break
				}
			}
			continue
		}
		for k := len(qs) - 1; k >= 0; k-- {
			if q := qs[k]; !q.used && precedes(skip, m, q) {
				m.qs, q.used = append(m.qs, q), true
				break
			}
		}
	}
	for _, m := range ms {
		if len(m.qs) > 0 {
			continue
		}
		for _, q := range qs {
			if !q.used && beside(skip, m, q) {
				m.qs, q.used = append(m.qs, q), true
				break
			}
		}
	}
	// A quantity next to a bound one is part of it ("2 ctn 6 pcs") or a
	// second thought ("5 se 6 ctn", "5 ctn nahi 6 ctn"): either way it
	// belongs to the same product, which then decides.
	for _, m := range ms {
		for grew := len(m.qs) > 0; grew; {
			grew = false
			first, last := m.qs[0], m.qs[len(m.qs)-1]
			for _, q := range qs {
				if q.used || q.measure != "" {
					continue
				}
				if (q.start >= last.end && joinable(r, skip, last.end, q.start)) || (q.end <= first.start && joinable(r, skip, q.end, first.start)) {
					m.qs, q.used, grew = append(m.qs, q), true, true
					byStart(m.qs)
					break
				}
			}
		}
	}
}

// follows reports a quantity written after a product, with only skippable
// tokens between: "GC 5 carton".
func follows(skip []bool, m *mention, q *quantity) bool {
	return q.start >= m.end && gapOnly(skip, m.end, q.start)
}

// precedes reports a quantity written before a product, with only skippable
// tokens between: "5 carton GC".
func precedes(skip []bool, m *mention, q *quantity) bool {
	return q.end <= m.start && gapOnly(skip, q.end, m.start)
}

// beside reports a quantity written right after or right before a product.
func beside(skip []bool, m *mention, q *quantity) bool {
	return follows(skip, m, q) || precedes(skip, m, q)
}

// gapOnly reports whether tokens [from, to) are all skippable.
func gapOnly(skip []bool, from, to int) bool {
	for k := from; k < to; k++ {
		if k < 0 || k >= len(skip) || !skip[k] {
			return false
		}
	}
	return true
}

// shareQuantities gives a quantity said of every product of a list ("GC
// aur TC 5-5 ctn", "2 ctn each of GC and TC") to the products of that list
// that have none.
func shareQuantities(r *reading, ms []*mention, skip []bool) {
	linked := func(from, to int) bool { // only "and", commas and fillers between
		for k := from; k < to; k++ {
			if !skip[k] && !andWords[r.word(k)] {
				return false
			}
		}
		return !r.newline(max(from-1, 0), min(to, len(r.toks)-1))
	}
	for i, m := range ms {
		if len(m.qs) != 1 || !saidOfEach(r, m.qs[0]) {
			continue
		}
		q := m.qs[0]
		for j := i - 1; j >= 0 && len(ms[j].qs) == 0 && linked(ms[j].end, ms[j+1].start); j-- {
			ms[j].qs = []*quantity{q}
		}
		for j := i + 1; j < len(ms) && len(ms[j].qs) == 0 && linked(ms[j-1].end, ms[j].start); j++ {
			ms[j].qs = []*quantity{q}
		}
	}
}

// saidOfEach reports a quantity written "5-5" or beside a word such as
// "each" or "dono".
func saidOfEach(r *reading, q *quantity) bool {
	if q.each {
		return true
	}
	for _, i := range []int{q.start - 1, q.start - 2, q.end, q.end + 1} {
		if eachWords[r.word(i)] {
			return true
		}
	}
	return false
}

// joinable reports whether tokens [from, to) may stand between two
// quantities of one product: nothing, fillers, or a word that joins,
// ranges or corrects them, on one line.
func joinable(r *reading, skip []bool, from, to int) bool {
	if from > 0 && to < len(r.toks) && r.newline(from-1, to) {
		return false
	}
	for k := from; k < to; k++ {
		w := r.word(k)
		if !skip[k] && !rangeWords[w] && !correctionWords[w] && !andWords[w] {
			return false
		}
	}
	return to-from <= 2
}
