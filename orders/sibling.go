package orders

import (
	"sort"

	"github.com/munshi/munshi/intent"
)

// siblings reads a word said alone after a count, beside no name, as the
// product whose name differs from the one named before it by that word
// only: "4 box lyra leggings L ar 2 box XL" orders the XL leggings too.
func (p *Parser) siblings(r *reading, ms []*mention, qs []*quantity) []*mention {
	added := false
	for _, q := range qs {
		i := q.end
		if !r.plain(i) || r.plain(i+1) && !r.newline(i, i+1) {
			continue
		}
		last := lastBefore(ms, q.start)
		if last == nil || len(last.skus) != 1 {
			continue
		}
		if sku := p.sibling(last.skus[0], r.word(i)); sku != "" {
			r.claim(i, i+1)
			ms, added = append(ms, &mention{skus: []string{sku}, start: i, end: i + 1}), true
		}
	}
	if added {
		byMentionStart(ms)
	}
	return ms
}

// lastBefore is the last mention that ends by token at, or nil.
func lastBefore(ms []*mention, at int) *mention {
	var last *mention
	for _, m := range ms {
		if m.end <= at {
			last = m
		}
	}
	return last
}

// byMentionStart orders mentions as the message says them.
func byMentionStart(ms []*mention) {
	sort.SliceStable(ms, func(a, b int) bool { return ms[a].start < ms[b].start })
}

// sibling is the one other product whose name is sku's with one word
// changed to w, as a message reads it; "" when there is none or more.
func (p *Parser) sibling(sku, w string) string {
	base := nameWords(p.products[sku].Name)
	found := ""
	for other, prod := range p.products {
		if other == sku || prod.Inactive {
			continue
		}
		words := nameWords(prod.Name)
		if len(words) != len(base) {
			continue
		}
		diff := -1
		for k := range words {
			if words[k] != base[k] {
				if diff >= 0 {
					diff = -2
					break
				}
				diff = k
			}
		}
		if diff < 0 || base[diff] == w || words[diff] != w && intent.Spelled(words[diff]) != w {
			continue
		}
		if found != "" {
			return ""
		}
		found = other
	}
	return found
}
