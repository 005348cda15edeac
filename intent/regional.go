package intent

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// The office asked for in the regional languages. Their words come
// inflected (मालकांशी, साहेबांच्या, ओफिसनो, यजमानितो: the owner or the
// office with a case ending), so the readings here match the start of a
// word in the Devanagari the scripts are read in, and a few romanised
// words whole. A message asks for the office when it names one of the
// office's people and wants to talk with them, be called or met by them,
// have word passed to them, or their number.

// inflected are the words for one thing in the regional languages: the
// starts of its words in Devanagari, and whole romanised words.
type inflected struct {
	starts []string
	whole  map[string]bool
}

// in reports a word of shape that is one of f's.
func (f inflected) in(shape []string) bool {
	if anyOf(shape, f.whole) {
		return true
	}
	for _, w := range shape {
		if startsAny(w, f.starts) {
			return true
		}
	}
	return false
}

var (
	// regionalWho are the office's people: the owner (Marathi मालक,
	// Kannada मालीक, Odia मालिक, Telugu यजमान, Tamil मुतलाळि and ओऩर,
	// Gujarati शेठ, Urdu مالک), the boss (साहेब), the office (ओफिस, अफिस,
	// आपीस, Telugu and Kannada आफीस, Malayalam ओफीस, दफतर, Urdu دفتر),
	// accounts and the manager (Marathi म्यानेजार, Tamil मेऩेजर);
	// romanised, the owner, a person, someone.
	regionalWho = inflected{
		[]string{"मालक", "मालीक", "मालिक", "यजमान", "मुतलाळि", "ओऩर", "शेठ", "साहेब", "ओफिस", "अफिस", "आपीस", "आफीस", "ओफीस", "दफतर", "दफ्तर",
			"अकाउंट्स", "एकाउन्ट", "म्यानेजार", "मेऩेजर", "مالک", "دفتر"},
		words("malak sheth manas bande koni keu")}
	// regionalAsk are the words that ask: to talk (बोलाय, पेच, माट्लाड,
	// माताड, Malayalam संसारिक्क, Urdu بات), to call (फोन, कोल, Malayalam
	// विळिक्क), a number (नम्पर, Urdu نمبر), to tell (सांग, कहो, जानान,
	// चेप्प, हेळ, चोल्ल) or to put in the ear (कानावर); romanised, to tell,
	// talk or meet.
	regionalAsk = inflected{
		[]string{"बोलाय", "पेच", "माट्लाड", "माताड", "संसारिक्क", "بات", "फोन", "कोल", "विळिक्क", "नम्पर", "نمبر", "सांग", "कहो", "जानान", "चेप्प",
			"हेळ", "चोल्ल", "कानावर"},
		words("sanga kaho keho bolun sollunga cheppandi vaat gal pesanum bheta")}
)

// regionalOfficeAsk reports the office asked for in a regional language:
// "मला मालकांशी बोलायचं आहे", "साहेबांच्या कानावर घाला", "ઓફિસનો નંબર
// આપો ને", "koi bande naal gal karao ji", "owner kitta sollunga".
//
// The office's people named in Hindi or English count with a regional
// word that asks ("Seth ji nu keho"); a number counts with the office
// named in a regional word ("ઓફિસનો નંબર"), as "naye manager ka number
// kisi ke paas hai?" asks after someone else's.
func regionalOfficeAsk(shape []string) bool {
	who, ask := regionalWho.in(shape), regionalAsk.in(shape)
	if !who && !ask {
		return false
	}
	// Hindi's "baat" talks only with a regional word for who: "શેઠ સાથે
	// વાત", "ମାଲିକଙ୍କ ସହ କଥା" ("ek baat batao" asks a thing).
	talk := ask || who && anyOf(shape, baatWords)
	named := anyOf(shape, headWords) || anyOf(shape, officeRoles) && !anyOf(shape, sirWord) || anyOf(shape, staffOnly)
	return (who && (talk || anyOf(shape, phoneNumberWords)) || named && ask) && !dialled(shape)
}

var (
	phoneNumberWords = words("number")
	// staffOnly is one of the business's people by name ("vikram sir jode
	// vaat karvi che").
	staffOnly = words("STAFF")
)

// startsAny reports w starting with one of stems. Every stem is written
// in Devanagari or Urdu's script, so a word of Latin letters starts none:
// most messages are read without comparing a stem.
func startsAny(w string, stems []string) bool {
	if w == "" || w[0] < utf8.RuneSelf {
		return false
	}
	for _, s := range stems {
		if strings.HasPrefix(w, s) {
			return true
		}
	}
	return false
}

var (
	// regionalWrong is wrong: Marathi चुकीच, Bengali भुल, Tamil, Telugu
	// and Kannada तप्प; romanised, with Gujarati's khoto ("bhul" is also
	// Hindi's "forgot", and is left out).
	regionalWrong = inflected{[]string{"चुकीच", "भुल", "तप्प"}, words("chukicha khoto tappu thappu")}
	// bhulWord is wrong just before the goods: Bengali "bhul maal" (the
	// wrong goods), where Hindi's "maal bhul gaya" forgot them.
	bhulWord = words("bhul")
	// regionalOnBill are a bill, a rate and a price: बिल (बिलात, बिलमां,
	// बिले), पिल (Tamil), दर, दाम.
	regionalOnBill = inflected{starts: []string{"बिल", "पिल", "दर", "दाम"}}
	// regionalBack ask for goods to be taken back or exchanged: परत,
	// पाछी, फेरत, मात्ति, बदलून, बदले, and romanised.
	regionalBack = inflected{[]string{"परत", "पाछी", "फेरत", "मात्ति", "बदलून", "बदले"}, words("badli ferot tirigi")}
	// regionalSpoilt say goods came spoilt: broken (फुटलेल, टुट्ट,
	// पगिलि, भाङ), torn (छेंडा, faatela), leaking (लीक), dented (नुग्गि),
	// expired (एक्सपायरी, एक्स्पयरि).
	regionalSpoilt = inflected{[]string{"फुटलेल", "टुट्ट", "पगिलि", "भाङ", "छेंडा", "लीक", "नुग्गि", "एक्सपायरी", "एक्स्पयरि"}, words("faatela")}
)

// regionalDispute reports, in a regional language, a bill, a rate or the
// goods said to be wrong ("बिलात फिनाइलचा दर ६५ ऐवजी ७२ लावलाय, हे
// चुकीचं आहे", "aa rate khoto che", "thappu maal"), or spoilt goods asked
// to be taken back or exchanged ("ડીશવોશની બોટલો લીક થઈને આવી છે, પાછી
// લઈ જાવ").
func regionalDispute(shape []string) bool {
	if anyOf(shape, draftWords) || anyOf(shape, cancelVerbs) {
		return false // "हा ड्राफ्ट डिलीट करा, चुकीचा माल टाकला" corrects a draft
	}
	wrong := regionalWrong.in(shape) || followedBy(shape, bhulWord, goodsOnly)
	back := regionalBack.in(shape) // Hindi's are read by spoiltReturned: "वापस भेज दिए" is news
	if !wrong && !back {
		return false
	}
	onBill := anyOf(shape, rateWords) || anyOf(shape, itemWords) || anyOf(shape, goodsOnly) || anyOf(shape, owedWords) ||
		anyOf(shape, documentWords) || regionalOnBill.in(shape)
	spoilt := spoiltSaid(shape) || regionalSpoilt.in(shape)
	return wrong && onBill || back && spoilt
}

var (
	// regionalLedger is the ledger: लेजर, खात (खातामां, खाताय), and an
	// entry in it.
	regionalLedger = inflected{[]string{"लेजर", "खात"}, words("entry")}
	// regionalNot deny: Marathi नाही, Gujarati नथी, romanised Bengali
	// nei and Tamil aagala; Tamil and Kannada deny at a word's end (इल्ल).
	regionalNot    = inflected{[]string{"नाही", "नथी"}, words("nei aagala")}
	regionalNotEnd = "इल्ल"
)

// regionalNotShown reports money paid that the ledger does not show, in a
// regional language: "परवा ₹२०,००० UPI ने भरले, पण लेजरमध्ये अजून दिसत
// नाहीत", "ledger e nei keno?", "naan kudutha 25000 cheque entry aagala".
func regionalNotShown(shape []string) bool {
	if !anyOf(shape, ledgers) && !regionalLedger.in(shape) {
		return false
	}
	not := regionalNot.in(shape) || slices.ContainsFunc(shape, func(w string) bool { return strings.Contains(w, regionalNotEnd) })
	return not && (anyOf(shape, numberPlaceholder) || anyOf(shape, modeWords) || anyOf(shape, paymentWords))
}
