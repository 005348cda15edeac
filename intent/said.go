package intent

import (
	"strings"
	"sync"
)

// A catalog's English word is written in Devanagari as it is said, not
// as it is spelt: "लाइट" is light, "टाइप" type, "केबल" cable, "बटर"
// butter, "लेडीज" ladies. The consonant keys of sound.go miss these: the
// short ones have too few consonants to go by, and English's vowels are
// not its letters. So both spellings are also written as said, with
// every vowel short, and a Devanagari word takes the catalog word said
// exactly the same, when only one word is.

// minSaid is the shortest saying compared: "red" and "रेड", or "men" and
// "में", are too short to tell a name from a word of the sentence.
const minSaid = 4

// sayings returns how the catalog's Latin word w may be said: as spelt,
// with its letters read one by one, and as English says it; each also
// with a last s said z ("ladies", "लेडीज"). At most four, none shorter
// than minSaid.
func sayings(w string) []string {
	var out []string
	add := func(s string) {
		s = plainSaid(s)
		if len(s) < minSaid {
			return
		}
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	for _, s := range [2]string{spelt(w), english(w)} {
		if s == "" {
			continue
		}
		add(s)
		if n := len(s); n > 2 && s[n-1] == 's' && strings.IndexByte("aeioun", s[n-2]) >= 0 {
			add(s[:n-1] + "j") // "shoes", "jeans": शूज, जींस is the first
		}
	}
	return out
}

// spelt reads w letter by letter, with the consonant pairs English writes
// for one sound ("ph", "ck", "wh") as that sound. "" for a word with
// other than the letters a to z.
func spelt(w string) string {
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return ""
		}
		said, more := consonantSaid(w, i, false)
		b.WriteString(said)
		i += more
	}
	return b.String()
}

// consonantSaid is the sound of the letter at i of w and how many letters
// after it that sound takes: "ph" f, "ck" k, "wh" v, x ks, and c and g as
// English says them before e, i and y when soft.
func consonantSaid(w string, i int, soft bool) (string, int) {
	c, next := w[i], byte(0)
	if i+1 < len(w) {
		next = w[i+1]
	}
	softened := soft && strings.IndexByte("eiy", next) >= 0
	switch {
	case c == 'p' && next == 'h':
		return "f", 1
	case c == 'c' && next == 'k':
		return "k", 1
	case c == 'w' && next == 'h':
		return "v", 1
	case c == 'c' && next == 'h':
		return "ch", 1
	case c == 'c' && softened:
		return "s", 0
	case c == 'c':
		return "k", 0
	case c == 'g' && softened:
		return "j", 0
	case c == 'x':
		return "ks", 0
	}
	return w[i : i+1], 0
}

// english says w the way English spelling is commonly said: a silent e
// that lengthens the vowel before it ("type" taip, "tape" tep, "tube"
// tyub), "igh" as ai ("light"), the vowel pairs as one vowel ("soap"
// sop, "paint" pent), a vowel alone before one consonant and a vowel
// said long ("cable" kebal, "ladies" ledis), u before two consonants
// said a ("butter" batar), soft c and g ("city", "gel"), a last y said
// i, and a last -le, -er or -or said al and ar. "" for a word with
// other than the letters a to z.
func english(w string) string {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return ""
		}
	}
	n := len(w)
	if n > 3 && strings.HasSuffix(w, "le") && !isVowelByte(w[n-3]) {
		w = w[:n-2] + "al" // cable, bottle, nozzle
		n = len(w)
	}
	magic := -1 // the vowel a silent last e lengthens
	switch {
	case n >= 4 && w[n-1] == 'e' && !isVowelByte(w[n-2]) && isVowelByte(w[n-3]) && !isVowelByte(w[n-4]):
		magic = n - 3
		w, n = w[:n-1], n-1
	case n >= 5 && strings.HasSuffix(w, "ste") && isVowelByte(w[n-4]) && !isVowelByte(w[n-5]):
		magic = n - 4 // paste, taste
		w, n = w[:n-1], n-1
	case n >= 4 && w[n-1] == 'e' && !isVowelByte(w[n-2]) && w[n-2] != 'l':
		w, n = w[:n-1], n-1 // silent after two consonants: large, orange
		if w[n-1] == 'g' {
			w = w[:n-1] + "j" // a g before the silent e is soft
		}
	}
	vowels := 0
	for i := 0; i < n; i++ {
		if strings.IndexByte("aeiou", w[i]) >= 0 {
			vowels++
		}
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		c := w[i]
		at := func(k int) byte {
			if i+k < n {
				return w[i+k]
			}
			return 0
		}
		rest := w[i:]
		switch {
		case i == magic:
			b.WriteString(lengthened[c])
		case strings.HasPrefix(rest, "eigh"):
			b.WriteByte('e')
			i += 3
		case strings.HasPrefix(rest, "igh"):
			b.WriteString("ai")
			i += 2
		case strings.HasPrefix(rest, "ee"), strings.HasPrefix(rest, "ea"), strings.HasPrefix(rest, "ie"):
			b.WriteByte('i')
			i++
		case strings.HasPrefix(rest, "oo"):
			b.WriteByte('u')
			i++
		case strings.HasPrefix(rest, "ai"), strings.HasPrefix(rest, "ay"), strings.HasPrefix(rest, "ei"):
			b.WriteByte('e')
			i++
		case strings.HasPrefix(rest, "oa"), rest == "ow", strings.HasPrefix(rest, "au"), strings.HasPrefix(rest, "aw"):
			b.WriteByte('o')
			i++
		case strings.HasPrefix(rest, "ou"):
			b.WriteString("au")
			i++
		case rest == "ue":
			b.WriteByte('u')
			i++
		case rest == "er", rest == "or", rest == "ar":
			b.WriteString("ar")
			i++
		case c == 'y':
			switch {
			case i == 0 || isVowelByte(at(1)):
				b.WriteByte('y')
			case vowels == 0:
				b.WriteString("ai") // dry, fry
			default:
				b.WriteByte('i')
			}
		case c == 'a' && open(w, i):
			b.WriteByte('e')
		case c == 'u' && closed(w, i):
			b.WriteByte('a')
		default:
			said, more := consonantSaid(w, i, true)
			b.WriteString(said)
			i += more
		}
	}
	return b.String()
}

// lengthened is how English says a vowel a silent last e lengthens.
var lengthened = map[byte]string{'a': "e", 'e': "i", 'i': "ai", 'y': "ai", 'o': "o", 'u': "yu"}

// open reports the vowel at i alone before one consonant and a vowel:
// said long ("ladies", "paper", "baby").
func open(w string, i int) bool {
	return i+2 < len(w) && !isVowelByte(w[i+1]) && w[i+1] != 'r' && w[i+1] != 'x' &&
		isVowelByte(w[i+2]) && (i == 0 || !isVowelByte(w[i-1]))
}

// closed reports the u at i after a consonant and before two consonants
// or a last one: said a ("butter", "cup", "brush"), not "full" or "push".
func closed(w string, i int) bool {
	if i == 0 || isVowelByte(w[i-1]) || i+1 >= len(w) || isVowelByte(w[i+1]) {
		return false
	}
	if strings.HasPrefix(w[i+1:], "ll") || strings.HasPrefix(w[i+1:], "sh") {
		return false
	}
	return i+2 >= len(w) || !isVowelByte(w[i+2]) || w[i+1] == w[i+2]
}

// devanagariSaid writes a Devanagari word as said, every vowel short and
// the unwritten a dropped where Hindi drops it: at the end, and between
// a vowel's syllable and one with a vowel of its own ("बटर" batar,
// "सरमा" sarma, "लाइट" lait); "" when w has other letters.
func devanagariSaid(w string) string {
	type syllable struct {
		consonants, vowel, coda string
		inherent                bool
	}
	var ss []syllable
	rs := []rune(w)
	cluster := ""
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if c, ok := devanagariLetters[r]; ok {
			if i+1 < len(rs) && rs[i+1] == nukta {
				i++
			}
			if c == "h" && strings.HasSuffix(cluster, "v") {
				c = "" // "व्हाइट": the wh of white
			}
			cluster += c
			switch {
			case i+1 < len(rs) && rs[i+1] == virama:
				i++ // joined to the next consonant
			case i+1 < len(rs) && isSign(rs[i+1]):
				i++
				ss = append(ss, syllable{consonants: cluster, vowel: saidVowels[rs[i]]})
				cluster = ""
			default:
				ss = append(ss, syllable{consonants: cluster, vowel: "a", inherent: true})
				cluster = ""
			}
			continue
		}
		if v, ok := saidVowels[r]; ok {
			ss = append(ss, syllable{consonants: cluster, vowel: v})
			cluster = ""
			continue
		}
		switch r {
		case 'ं', 'ँ', 'ः':
			coda := "n"
			switch {
			case r == 'ः':
				coda = "h"
			case i+1 < len(rs) && strings.ContainsRune("पफबभम", rs[i+1]):
				coda = "m"
			}
			if len(ss) > 0 {
				ss[len(ss)-1].coda += coda
			}
		case nukta, virama, '\u200c', '\u200d':
		default:
			return ""
		}
	}
	var b strings.Builder
	for k, s := range ss {
		b.WriteString(s.consonants)
		last := k == len(ss)-1 && cluster == ""
		dropped := s.inherent && s.coda == "" && (last || k > 0 && ss[k-1].coda == "" && ss[k-1].vowel != "" &&
			k+1 < len(ss) && ss[k+1].consonants != "" && !(ss[k+1].inherent && k+1 == len(ss)-1))
		if !dropped {
			b.WriteString(s.vowel)
		}
		b.WriteString(s.coda)
	}
	b.WriteString(cluster)
	return plainSaid(b.String())
}

// saidVowels are Devanagari's vowels and vowel signs, said short.
var saidVowels = map[rune]string{
	'अ': "a", 'आ': "a", 'इ': "i", 'ई': "i", 'उ': "u", 'ऊ': "u", 'ऋ': "ri", 'ए': "e", 'ऐ': "e",
	'ओ': "o", 'औ': "o", 'ऑ': "o", 'ऍ': "e",
	'ा': "a", 'ि': "i", 'ी': "i", 'ु': "u", 'ू': "u", 'ृ': "ri", 'े': "e", 'ै': "e", 'ो': "o", 'ौ': "o",
	'ॉ': "o", 'ॅ': "e",
}

// plainSaid writes the letters both scripts share one way: z as j, w as
// v, q as k, and a letter said twice once.
func plainSaid(s string) string {
	b := []byte(s)
	out := b[:0]
	for _, c := range b {
		switch c {
		case 'z':
			c = 'j'
		case 'w':
			c = 'v'
		case 'q':
			c = 'k'
		}
		if len(out) > 0 && out[len(out)-1] == c {
			continue
		}
		out = append(out, c)
	}
	return string(out)
}

// skeleton is the consonants of a said word, each once where said twice,
// without y and the h that breathes a consonant: "baks" bks, "kartan"
// krtn.
func skeleton(said string) string {
	b := make([]byte, 0, len(said))
	for i := 0; i < len(said); i++ {
		c := said[i]
		switch {
		case strings.IndexByte("aeiouy", c) >= 0:
			continue
		case c == 'h' && i > 0 && !isVowelByte(said[i-1]):
			continue
		case len(b) > 0 && b[len(b)-1] == c:
			continue
		}
		b = append(b, c)
	}
	return string(b)
}

// minSkeleton is the fewest consonants a unit is heard by: "bag" and
// "bar" have too few to tell from a word of the sentence ("5 बार" is
// five times).
const minSkeleton = 3

// unitSkeletons are the units' and the measures' Latin spellings by
// their consonants, for a unit written in another script as said:
// Kannada's "ಬಾಕ್ಸ್" is a box, Assamese "লিটাৰ" a litre, Malayalam's
// "കാർട്ടൺ" a carton. Abbreviations ("ctn", "pkt") are written, not
// said: only spellings with a vowel count.
var unitSkeletons = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for v, u := range builtinUnits {
		if u.among == "" {
			addSkeleton(m, v, u.unit)
		}
	}
	for v, canon := range measureSuffixes {
		addSkeleton(m, v, canon)
	}
	return m
})

// addSkeleton keys unit by the consonants of its Latin spelling v.
func addSkeleton(m map[string]string, v, unit string) {
	if !strings.ContainsAny(v, "aeiou") {
		return
	}
	sk := skeleton(plainSaid(spelt(v)))
	if len(sk) < minSkeleton {
		return
	}
	if old, ok := m[sk]; ok && old != unit {
		unit = ambiguous
	}
	m[sk] = unit
}

// unitHeard is the unit or measure a word of an Indian script, unlisted,
// sounds like: the catalog's own units first ("बैरल" for its barrel).
func (l *lexicon) unitHeard(w string) (string, bool) {
	return l.unitBySkeleton(skeleton(devanagariSaid(w)))
}

// unitBySkeleton is the unit or measure of consonants sk, the catalog's
// own units first.
func (l *lexicon) unitBySkeleton(sk string) (string, bool) {
	if len(sk) < minSkeleton {
		return "", false
	}
	u, ok := l.unitSkeletons[sk]
	if !ok {
		u, ok = unitSkeletons()[sk]
	}
	return u, ok && u != ambiguous
}

// unitMisspelt is the unit or measure a Latin word of five letters or
// more that no message, name or number has is written for as said, by its
// consonants and about as long: "bundel" and "bundal" are a bundle,
// "releases" no roll.
func (l *lexicon) unitMisspelt(w string) (string, bool) {
	if len(w) < 5 || w[0] >= 0x80 || !strings.ContainsAny(w, "aeiou") || !l.unheard(w) {
		return "", false
	}
	u, ok := l.unitBySkeleton(skeleton(plainSaid(spelt(w))))
	return u, ok && len(w) <= len(u)+2 && len(u) <= len(w)+2
}
