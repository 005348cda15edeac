package intent

import (
	"slices"
	"unicode/utf8"
)

// typoIndex finds the words of names within one edit of a message word
// without comparing it to every name: two words within one insertion,
// deletion, substitution or swap share a form with at most one letter
// deleted ("phenyl" and "phenl" share "phenl", "phenyl" and "phneyl" share
// "pheyl"), so each word is filed under the hashes of those forms.
type typoIndex struct {
	keys []typoKey // sorted by hash
	// first[b] is the first key whose hash starts with the bits b (the
	// top bits, as many as it takes to give each key a bucket of its
	// own), so that a hash is found in a bucket of about one key.
	first []int32
	shift uint
	text  []string // word ids' text, shared with the lexicon
}

type typoKey struct {
	hash uint64
	word int32
}

// newTypoIndex files the words that may be matched with a typo.
func newTypoIndex(words []string) typoIndex {
	n := 0
	for _, w := range words {
		if fuzzyWord(w) {
			n += utf8.RuneCountInString(w) + 1
		}
	}
	keys := make([]typoKey, 0, n)
	var buf [48]rune
	for id, w := range words {
		if !fuzzyWord(w) {
			continue
		}
		rs := toRunes(w, buf[:0])
		for skip := -1; skip < len(rs); skip++ {
			keys = append(keys, typoKey{hashWithout(rs, skip), int32(id)})
		}
	}
	slices.SortFunc(keys, func(a, b typoKey) int {
		switch {
		case a.hash < b.hash:
			return -1
		case a.hash > b.hash:
			return 1
		}
		return int(a.word - b.word)
	})
	keys = slices.Compact(keys)
	bits := uint(1)
	for 1<<bits < len(keys) && bits < 24 {
		bits++
	}
	x := typoIndex{keys: keys, first: make([]int32, 1<<bits+1), shift: 64 - bits, text: words}
	k := 0
	for b := range x.first {
		for k < len(keys) && keys[k].hash>>x.shift < uint64(b) {
			k++
		}
		x.first[b] = int32(k)
	}
	return x
}

// near appends to out the ids of the filed words within one edit of w,
// other than w itself.
func (x typoIndex) near(w string, out []int32) []int32 {
	if len(x.keys) == 0 {
		return out
	}
	var buf [48]rune
	rs := toRunes(w, buf[:0])
	for skip := -1; skip < len(rs); skip++ {
		h := hashWithout(rs, skip)
		b := h >> x.shift
		for _, k := range x.keys[x.first[b]:x.first[b+1]] {
			if k.hash != h {
				continue
			}
			if c := x.text[k.word]; c != w && !slices.Contains(out, k.word) && withinOneEdit(w, c) {
				out = append(out, k.word)
			}
		}
	}
	return out
}

// hashWithout is the FNV-1a hash of the runes with the one at skip left
// out (none when skip is -1).
func hashWithout(rs []rune, skip int) uint64 {
	h := uint64(14695981039346656037)
	for i, r := range rs {
		if i == skip {
			continue
		}
		for shift := 0; shift < 32; shift += 8 {
			h ^= uint64(byte(r >> shift))
			h *= 1099511628211
		}
	}
	return h
}
