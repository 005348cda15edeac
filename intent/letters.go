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
