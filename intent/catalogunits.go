package intent

import "strings"

// addUnit makes a catalog's own unit ("drum", "ladi") a unit word.
func (l *lexiconBuilder) addUnit(name string) {
	w := strings.ToLower(strings.TrimSpace(name))
	if w == "" || strings.ContainsAny(w, " \t") {
		return
	}
	if _, ok := l.units[w]; ok {
		return
	}
	u := unitWord{unit: w, needsCount: true}
	if b, ok := builtinUnits[w]; ok {
		u = b
	} else if k := looseUnit(w); k != "" {
		if l.unitSkeletons == nil {
			l.unitSkeletons = map[string]string{}
		}
		addSkeleton(l.unitSkeletons, w, w)
		if l.unitSounds == nil {
			l.unitSounds = map[string]unitWord{}
		}
		l.unitSounds[k] = u
	}
	l.units[w] = u
	if _, ok := l.units[w+"s"]; !ok {
		l.units[w+"s"] = u
	}
}

// unitFor returns the unit a word stands for, if it is one.
func (l *lexicon) unitFor(w string) (unitWord, bool) {
	u, ok := l.units[w]
	if !ok && len(l.unitSounds) > 0 && w != "" && (w[0] >= 0x80 || strings.ContainsAny(w, "aeiou")) {
		if k := looseUnit(w); k != "" && k != w {
			u, ok = l.unitSounds[k]
		}
	}
	return u, ok
}

// looseUnit spells a unit word with its long vowels short ("thaan" is
// "than"), and a Devanagari one in Latin letters without its last
// inherent vowel ("थान" is "than"): the catalog's own units are written
// both ways. "" for a word too short to tell.
func looseUnit(w string) string {
	if w == "" {
		return ""
	}
	if w[0] >= 0x80 {
		w = strings.TrimSuffix(romanise(w), "a")
	}
	// Devanagari has no q and one letter for v and w: "क्विंटल" is
	// "quintal".
	w = unitConsonants.Replace(w)
	if !strings.Contains(w, "aa") && !strings.Contains(w, "ee") && !strings.Contains(w, "ii") &&
		!strings.Contains(w, "oo") && !strings.Contains(w, "uu") {
		if len(w) < 3 {
			return ""
		}
		return w
	}
	w = unitVowels.Replace(w)
	if len(w) < 3 {
		return ""
	}
	return w
}

var unitConsonants = strings.NewReplacer("qu", "kv", "q", "k", "w", "v")

var unitVowels = strings.NewReplacer("aa", "a", "ee", "i", "ii", "i", "oo", "u", "uu", "u")
