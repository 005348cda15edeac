package intent

// Letters spelt out in Devanagari. A voice note's transcript, or a
// salesperson typing in Hindi, writes a brand's initials as the names of
// their letters: "जीसी" for GC, "एसीसी सीमेंट" for ACC cement, "सीपीवीसी
// पाइप" for CPVC pipe. Such a word is read as its letters only when the
// catalog or the customer list has a word of exactly those letters, so
// "बीबी" (a wife) stays itself wherever no "bb" is sold.

// letterNames are the names of the Latin letters as the Brahmic scripts
// write them, read as Devanagari (brahmic.go) and after foldDevanagari
// (no nukta: "ज़ेड" is "जेड"). It is the whole alphabet, not a list of
// words: Bengali and Kannada write the names with a short i ("জিসি" is
// "जिसि"), Tamil its c with ச ("ஜிசி" is "जिचि").
var letterNames = map[string]byte{
	"ए": 'a', "बी": 'b', "सी": 'c', "डी": 'd', "ई": 'e', "एफ": 'f', "जी": 'g', "एच": 'h', "आई": 'i',
	"जे": 'j', "के": 'k', "एल": 'l', "एम": 'm', "एन": 'n', "ओ": 'o', "पी": 'p', "क्यू": 'q', "आर": 'r',
	"एस": 's', "टी": 't', "यू": 'u', "वी": 'v', "डब्ल्यू": 'w', "डबल्यू": 'w', "एक्स": 'x', "वाई": 'y',
	"जेड": 'z', "जैड": 'z',
	"बि": 'b', "सि": 'c', "चि": 'c', "डि": 'd', "जि": 'g', "आइ": 'i', "पि": 'p', "टि": 't', "वि": 'v', "वाइ": 'y',
}

// longestLetterName is the most bytes a letter's name takes.
const longestLetterName = len("डब्ल्यू")

// lettersListed returns the Latin letters w spells out, two or more, when
// listed has them as a name's word.
func lettersListed(w string, listed map[string]int32) (string, bool) {
	if len(w) < 2*len("ए") || len(w) > 8*longestLetterName {
		return "", false
	}
	var buf [16]byte
	return spell(w, buf[:0], listed)
}

// spell tries every way of reading w as letters' names, after the
// letters in got, and returns the first that listed has.
func spell(w string, got []byte, listed map[string]int32) (string, bool) {
	if w == "" {
		if _, ok := listed[string(got)]; ok && len(got) >= 2 {
			return string(got), true
		}
		return "", false
	}
	for n := min(len(w), longestLetterName); n > 0; n-- {
		c, ok := letterNames[w[:n]]
		if !ok {
			continue
		}
		if s, ok := spell(w[n:], append(got, c), listed); ok {
			return s, true
		}
	}
	return "", false
}

// joinInitials makes one word of the letters' names written apart ("जी
// सी") when the catalog or the customer list has a word of those letters:
// the longest such run of two or more. A "जी" after a word other than a
// count is the honorific ("शर्मा जी"), not a G ("5 कार्टन जी सी").
func (l *lexicon) joinInitials(raw []rawWord) []rawWord {
	return joinRuns(l, raw, func(i int) bool {
		w := raw[i].text
		return w != "" && w[0] >= 0x80 && (i == 0 || w != "जी" || l.countWord(raw[i-1].text))
	}, func(w rawWord) (byte, bool) {
		c, ok := letterNames[foldDevanagari(w.text)]
		return c, ok
	}, func(first, last rawWord, letters string) rawWord {
		return rawWord{letters, first.start, last.end}
	})
}

// joinLetters makes one word of single Latin letters written apart ("G
// C", "G.C.") when the catalog or the customer list has a word of them.
// It reads the words as canonicalised, whatever stood between them, so
// that the normalised text reads the same again.
func (l *lexicon) joinLetters(toks []Token) []Token {
	return joinRuns(l, toks, func(i int) bool { return len(toks[i].Text) == 1 }, func(t Token) (byte, bool) {
		if w := t.Text; len(w) == 1 && w[0] >= 'a' && w[0] <= 'z' {
			return w[0], true
		}
		return 0, false
	}, func(first, last Token, letters string) Token {
		return Token{letters, first.Start, last.End}
	})
}

// joinRuns replaces in xs, in place, each longest run of two or more
// letters (letter reads one) that the lexicon lists as a word, beginning
// where starts allows, with the one element join makes of it.
func joinRuns[T any](l *lexicon, xs []T, starts func(i int) bool, letter func(T) (byte, bool), join func(first, last T, letters string) T) []T {
	out := xs[:0]
	for i := 0; i < len(xs); i++ {
		n, letters := 0, ""
		if i+1 < len(xs) && starts(i) {
			n, letters = initials(l, xs[i:], letter)
		}
		if n == 0 {
			out = append(out, xs[i])
			continue
		}
		out = append(out, join(xs[i], xs[i+n-1], letters))
		i += n - 1
	}
	return out
}

// initials reads the first of xs as letters and returns how many make
// the longest run of two or more that the lexicon lists, and its letters.
func initials[T any](l *lexicon, xs []T, letter func(T) (byte, bool)) (int, string) {
	var buf [8]byte
	letters, n, best := buf[:0], 0, ""
	for k := 0; k < len(xs) && len(letters) < len(buf); k++ {
		c, ok := letter(xs[k])
		if !ok {
			break
		}
		letters = append(letters, c)
		if _, ok := l.words[string(letters)]; ok && k > 0 {
			n, best = k+1, string(letters)
		}
	}
	return n, best
}

// countWord reports a number or a unit: what goods' initials follow.
func (l *lexicon) countWord(w string) bool {
	if isNumber(w) {
		return true
	}
	if c, ok := canonicalWords[squeeze(foldDevanagari(w))]; ok && len(c) == 1 {
		w = c[0]
	}
	return l.isUnitWord(w)
}
