package intent

import (
	"strings"
	"unicode/utf8"
)

// A name written in Devanagari that the catalog spells only in Latin
// letters ("हार्पिक" for Harpic, "सुपरमार्ट" for Supermart) is read by
// its sound: both spellings are reduced to a key of their consonants and
// the class of their first vowel, and a Devanagari word nobody listed
// takes the catalog's word of the same key, when only one word has it.

// devanagariLetters romanise the Devanagari consonants, independent vowels
// and vowel signs, the way Hinglish writes them.
var devanagariLetters = map[rune]string{
	'क': "k", 'ख': "kh", 'ग': "g", 'घ': "gh", 'ङ': "n", 'च': "ch", 'छ': "chh", 'ज': "j", 'झ': "jh", 'ञ': "n",
	'ट': "t", 'ठ': "th", 'ड': "d", 'ढ': "dh", 'ण': "n", 'त': "t", 'थ': "th", 'द': "d", 'ध': "dh", 'न': "n",
	'प': "p", 'फ': "ph", 'ब': "b", 'भ': "bh", 'म': "m", 'य': "y", 'र': "r", 'ल': "l", 'ळ': "l", 'व': "v",
	'श': "sh", 'ष': "sh", 'स': "s", 'ह': "h",
	'ऱ': "r", 'ऩ': "n", 'ऴ': "zh", // the Dravidian letters: Tamil's ற, ன, ழ
	'\u0958': "q", '\u0959': "kh", '\u095a': "g", '\u095b': "z", '\u095c': "r", '\u095d': "rh", '\u095e': "f", '\u095f': "y", // with a nukta
}

var devanagariVowels = map[rune]string{
	'अ': "a", 'आ': "aa", 'इ': "i", 'ई': "ee", 'उ': "u", 'ऊ': "oo", 'ऋ': "ri", 'ए': "e", 'ऐ': "ai",
	'ओ': "o", 'औ': "au", 'ऑ': "o", 'ऍ': "e",
	'ा': "aa", 'ि': "i", 'ी': "ee", 'ु': "u", 'ू': "oo", 'ृ': "ri", 'े': "e", 'ै': "ai", 'ो': "o", 'ौ': "au",
	'ॉ': "o", 'ॅ': "e",
}

const (
	virama = '्'
	nukta  = '़'
)

// romanise writes a Devanagari word in Latin letters, with the inherent
// vowel after a consonant that has no sign; "" when w has other letters.
func romanise(w string) string {
	var b strings.Builder
	rs := []rune(w)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if c, ok := devanagariLetters[r]; ok {
			if i+1 < len(rs) && rs[i+1] == nukta {
				i++ // the nukta changes little in a name
			}
			b.WriteString(c)
			switch {
			case i+1 >= len(rs):
				b.WriteByte('a')
			case rs[i+1] == virama:
				i++
			case !isSign(rs[i+1]):
				b.WriteByte('a')
			}
			continue
		}
		if v, ok := devanagariVowels[r]; ok {
			b.WriteString(v)
			continue
		}
		switch r {
		case 'ं', 'ँ':
			// Said m before a lip's consonant: "प्लंबिंग" is plumbing.
			if i+1 < len(rs) && strings.ContainsRune("पफबभम", rs[i+1]) {
				b.WriteByte('m')
			} else {
				b.WriteByte('n')
			}
		case 'ः':
			b.WriteByte('h')
		case nukta, virama, '\u200c', '\u200d':
		default:
			return ""
		}
	}
	return b.String()
}

// isSign reports whether r is a vowel sign, written after its consonant.
func isSign(r rune) bool { return r >= 'ा' && r <= 'ौ' || r == 'ॅ' || r == 'ॉ' }

// soundKey is the key of a word in Latin letters: its consonants, with the
// letters that sound alike made one and doubled ones single, and the class
// of its first vowel (a; e or i; o or u). english applies English's soft
// c and g ("city", "general") to a catalog's word. A key of fewer than
// three consonants says too little to go by: ok is false.
func soundKey(w string, english bool) (key string, ok bool) {
	var b strings.Builder
	vowel := byte(0)
	last := byte(0)
	for i := 0; i < len(w); i++ {
		c := w[i]
		next := byte(0)
		if i+1 < len(w) {
			next = w[i+1]
		}
		soft := next == 'e' || next == 'i' || next == 'y'
		switch c {
		case 'a':
			if vowel == 0 {
				vowel = 'a'
			}
			last = 0 // "pepsi": a consonant again after a vowel counts again
			continue
		case 'e', 'i':
			if vowel == 0 {
				vowel = 'i'
			}
			last = 0
			continue
		case 'o', 'u':
			if vowel == 0 {
				vowel = 'u'
			}
			last = 0
			continue
		case 'y':
			continue
		case 'h':
			if last != 0 && i > 0 && !isVowelByte(w[i-1]) {
				continue // kh, ph, sh, th: the consonant before it
			}
		case 'p':
			if next == 'h' {
				c = 'f'
			}
		case 'c':
			switch {
			case next == 'h':
				c = 'c'
			case english && soft:
				c = 's'
			default:
				c = 'k'
			}
		case 'g':
			if english && soft {
				c = 'j'
			}
		case 'q':
			c = 'k'
		case 'w':
			c = 'v'
		case 'z':
			c = 'j'
		case 'x':
			b.WriteByte('k')
			c = 's'
		default:
			if c < 'a' || c > 'z' {
				return "", false
			}
		}
		if c == last {
			continue
		}
		b.WriteByte(c)
		last = c
	}
	if b.Len() < 3 {
		return "", false
	}
	if vowel == 0 {
		vowel = '-'
	}
	return b.String() + "/" + string(vowel), true
}

func isVowelByte(c byte) bool { return strings.IndexByte("aeiouy", c) >= 0 }

// soundIndex finds the catalog word a Devanagari word sounds like.
type soundIndex struct {
	// full keys a word by its consonants and first vowel, loose by its
	// consonants alone (kept only for four or more: "जनरल" is General).
	full, loose map[string]string
	// said keys a word by how it is said (said.go): "लाइट" is light.
	said map[string]string
}

// ambiguous marks a key that more than one word has.
const ambiguous = "\x00"

// addSound keys w by k, or marks k ambiguous when another word has it. A
// word spelt again with a letter doubled or not ("glas" and "glass", two
// aliases of one cleaner) is the same word: the fuller spelling keeps k.
func addSound(m map[string]string, k, w string) {
	old, ok := m[k]
	switch {
	case !ok || old == w:
		m[k] = w
	case old != ambiguous && undoubled(old) == undoubled(w):
		if len(w) > len(old) {
			m[k] = w
		}
	default:
		m[k] = ambiguous
	}
}

// undoubled is w with each run of one letter written once.
func undoubled(w string) string {
	b := []byte(w)
	out := b[:0]
	for i, c := range b {
		if i == 0 || c != b[i-1] {
			out = append(out, c)
		}
	}
	return string(out)
}

func newSoundIndex(words []string) soundIndex {
	s := soundIndex{full: map[string]string{}, loose: map[string]string{}, said: map[string]string{}}
	for _, w := range words {
		if w == "" || w[0] < 'a' || w[0] > 'z' {
			continue
		}
		for _, said := range sayings(w) {
			addSound(s.said, said, w)
		}
		k, ok := soundKey(w, true)
		if !ok {
			continue
		}
		addSound(s.full, k, w)
		if cons := k[:strings.IndexByte(k, '/')]; len(cons) >= 4 {
			addSound(s.loose, cons, w)
		}
		// English's ch is also a k ("UltraTech", "chemicals"): Devanagari
		// writes it with क, "अल्ट्राटेक".
		if strings.Contains(w, "ch") {
			if k, ok := soundKey(strings.ReplaceAll(w, "ch", "k"), true); ok {
				if cons := k[:strings.IndexByte(k, '/')]; len(cons) >= 4 {
					addSound(s.loose, cons, w)
				}
			}
		}
	}
	return s
}

// sounds returns the catalog word the Devanagari word w sounds like.
func (s soundIndex) sounds(w string) (string, bool) {
	if len(s.full) == 0 || !utf8.ValidString(w) {
		return "", false
	}
	r := romanise(w)
	if r == "" {
		return "", false
	}
	if k, ok := soundKey(r, false); ok {
		if m, ok := s.full[k]; ok && m != ambiguous {
			return m, true
		}
		if cons := k[:strings.IndexByte(k, '/')]; len(cons) >= 4 {
			if m, ok := s.loose[cons]; ok && m != ambiguous {
				return m, true
			}
		}
	}
	if m, ok := s.said[devanagariSaid(w)]; ok && m != ambiguous {
		return m, true
	}
	return "", false
}
