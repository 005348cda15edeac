package intent

import (
	"strings"
	"sync"
)

// A Devanagari word that no table lists is often one the tables know in
// Latin letters: "पहुँचे" is pahunche, "भेजे" bheje, "आए" aaye. Such a word
// is written the way Hinglish writes it (the inherent vowel dropped where
// Hindi drops it, a "y" between two vowels) and read as the Latin word, so
// every spelling the tables know in Latin is known in Devanagari too,
// without listing each one twice.

// known is every Latin word the rules and word lists read, filled by words
// as the lists are built; latinFor reads a Devanagari word only into one
// of these, the spelling table's, or a unit's or a number's.
var known = map[string]bool{}

// latinFor returns the Latin word a Devanagari word w is written for, when
// one of its Hinglish spellings is a word Munshi knows.
func latinFor(w string) (string, bool) {
	if _, ok := numberWords[w]; ok {
		return "", false // "साठ" is sixty, whatever "saath" means
	}
	if _, ok := builtinUnits[w]; ok {
		return "", false
	}
	if _, ok := measureSuffixes[w]; ok {
		return "", false // "165 वाट" is watts, whatever "vaat" means
	}
	var buf [6]string
	spellings := hinglishSpellings(w, buf[:0])
	for _, c := range spellings {
		if cw, ok := canonicalWords[c]; ok {
			return strings.Join(cw, " "), true
		}
		if known[c] {
			return c, true
		}
		if _, ok := builtinUnits[c]; ok {
			return c, true
		}
		if _, ok := numberWords[c]; ok {
			return c, true
		}
	}
	// "उतारकर", "आकर": a verb with कर glued on, having done it, reads as
	// the verb.
	if stem, ok := strings.CutSuffix(w, "कर"); ok && stem != "" {
		if c, ok := canonicalWords[stem]; ok {
			return strings.Join(c, " "), true
		}
		if latin, ok := latinFor(stem); ok {
			return latin, true
		}
	}
	// An English word written in Devanagari ("ट्रांसफर", "फैक्ट्री") is
	// spelled by its sound, which no vowel rule recovers: it is read by its
	// consonants, as names are (sound.go).
	if len(spellings) > 0 {
		if latin, ok := loanword(knownSounds(), spellings[0]); ok {
			return latin, true
		}
	}
	return "", false
}

// knownSounds indexes the Latin words latinFor may read by their sound,
// once the word lists are built: only words of four consonants or more,
// whose key says enough that two words seldom share it ("फिनाइल" is not
// "final").
var knownSounds = sync.OnceValue(func() soundIndex {
	s := soundIndex{full: map[string]string{}}
	add := func(w, canon string) {
		if w == "" || w[0] < 'a' || w[0] > 'z' {
			return
		}
		k, ok := soundKey(w, true)
		if !ok || strings.IndexByte(k, '/') < 4 {
			return
		}
		// A word and its stem ("delivery", "deliver") are one word here:
		// the stem, which the rules read the same.
		if old, ok := s.full[k]; ok && old != ambiguous && old != canon {
			stem, longer := old, canon
			if len(longer) < len(stem) {
				stem, longer = longer, stem
			}
			if strings.HasPrefix(longer, stem) && len(longer)-len(stem) <= 2 {
				s.full[k] = stem
				return
			}
		}
		addSound(s.full, k, canon)
	}
	for w, c := range canonicalWords {
		add(w, strings.Join(c, " "))
	}
	for w := range known {
		add(w, w)
	}
	for w := range builtinUnits {
		add(w, w)
	}
	return s
})

// loanword returns the Latin word the romanised word r sounds like. The
// unwritten "a" of Devanagari is often an English "u" or "o" (कंपनी is
// company, सप्लायर supplier), so a key with that vowel tries both; and
// Bengali and Assamese, which have no v, write it bh ("ডেলিভারি").
func loanword(s soundIndex, r string) (string, bool) {
	if w, ok := loanwordAsSpelt(s, r); ok || !strings.Contains(r, "bh") {
		return w, ok
	}
	return loanwordAsSpelt(s, strings.ReplaceAll(r, "bh", "v"))
}

func loanwordAsSpelt(s soundIndex, r string) (string, bool) {
	k, ok := soundKey(r, false)
	if !ok {
		return "", false
	}
	if w, ok := s.full[k]; ok && w != ambiguous {
		return w, true
	}
	if strings.HasSuffix(k, "/a") {
		if w, ok := s.full[strings.TrimSuffix(k, "a")+"u"]; ok && w != ambiguous {
			return w, true
		}
	}
	return "", false
}

// syllable is one consonant (or none) and the vowel said after it.
type syllable struct {
	consonant string
	vowel     string
	inherent  bool // the vowel is the unwritten "a"
}

// hinglishSpellings writes a Devanagari word in Latin letters the ways
// Hinglish does: as said, with ई and ऊ short ("gaadi"), with every long
// vowel short ("mila"), and without the glide between two vowels ("aae"
// beside "aaye"). None when w has letters other than Devanagari ones.
func hinglishSpellings(w string, out []string) []string {
	var sy []syllable
	rs := []rune(w)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if c, ok := devanagariLetters[r]; ok {
			s := syllable{consonant: c, vowel: "a", inherent: true}
			if i+1 < len(rs) && rs[i+1] == nukta {
				i++
			}
			switch {
			case i+1 < len(rs) && rs[i+1] == virama:
				s.vowel, s.inherent = "", false
				i++
			case i+1 < len(rs) && isSign(rs[i+1]):
				s.vowel, s.inherent = devanagariVowels[rs[i+1]], false
				i++
			}
			sy = append(sy, s)
			continue
		}
		if v, ok := devanagariVowels[r]; ok {
			sy = append(sy, syllable{vowel: v})
			continue
		}
		switch r {
		case 'ं', 'ँ':
			if len(sy) == 0 {
				return out
			}
			if i+1 < len(rs) && strings.ContainsRune("पफबभम", rs[i+1]) {
				sy[len(sy)-1].vowel += "m" // कंपनी: company
			} else {
				sy[len(sy)-1].vowel += "n"
			}
		case 'ः', nukta, virama, '\u200c', '\u200d':
		default:
			return out
		}
	}
	if len(sy) == 0 {
		return out
	}
	// Hindi drops the unwritten "a" at the end of a word of more than one
	// syllable, and after a written vowel before a consonant with a vowel
	// of its own: निकला is nikla, not nikala.
	// A nasal after the dropped "a" stays: पंपिंचंडि is pampinchandi's
	// "pampinchndi", not "pampinchdi".
	if last := &sy[len(sy)-1]; last.inherent && len(sy) > 1 {
		last.vowel = strings.TrimPrefix(last.vowel, "a")
	}
	for i := 1; i+1 < len(sy); i++ {
		if sy[i].inherent && sy[i-1].vowel != "" && !sy[i-1].inherent && sy[i+1].consonant != "" && sy[i+1].vowel != "" {
			sy[i].vowel = strings.TrimPrefix(sy[i].vowel, "a")
		}
	}
	var glide, plain strings.Builder
	for i, s := range sy {
		glide.WriteString(s.consonant)
		plain.WriteString(s.consonant)
		if s.consonant == "" && i > 0 && sy[i-1].vowel != "" && (s.vowel == "e" || s.vowel == "ee" || s.vowel == "i") {
			glide.WriteByte('y')
		}
		glide.WriteString(s.vowel)
		plain.WriteString(s.vowel)
	}
	g := glide.String()
	out = append(out, g, shortIU.Replace(g), shortVowels.Replace(g))
	if p := plain.String(); p != g {
		out = append(out, p, shortIU.Replace(p), shortVowels.Replace(p))
	}
	return out
}

// Hinglish often writes the long vowels short: ई and ऊ nearly always
// ("gaadi", "pura"), आ less often ("mila" beside "milaa").
var (
	shortIU     = strings.NewReplacer("ee", "i", "oo", "u")
	shortVowels = strings.NewReplacer("aa", "a", "ee", "i", "oo", "u")
)
