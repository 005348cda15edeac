package intent

import "strings"

// The office asked for in the regional languages. Their words come
// inflected (मालकांशी, साहेबांच्या, ओफिसनो, यजमानितो: the owner or the
// office with a case ending), so the readings here match the start of a
// word in the Devanagari the scripts are read in, and a few romanised
// words whole. A message asks for the office when it names one of the
// office's people and wants to talk with them, be called or met by them,
// have word passed to them, or their number.

var (
	// regionalWho start the words for the office's people: the owner
	// (Marathi मालक, Kannada मालीक, Telugu यजमान, Tamil मुतलाळि,
	// Gujarati शेठ), the boss (साहेब), the office (ओफिस, अफिस, आपीस,
	// दफतर), accounts and the manager.
	regionalWho = []string{"मालक", "मालीक", "यजमान", "मुतलाळि", "शेठ", "साहेब", "ओफिस", "अफिस", "आपीस", "दफतर", "अकाउंट्स", "एकाउन्ट", "म्यानेजार"}
	// regionalWhoWords are romanised: the owner, a person, someone.
	regionalWhoWords = words("malak sheth manas bande koni keu")
	// regionalAsk start the words that ask: to talk (बोलाय, पेच,
	// माट्लाड, माताड), to call (फोन, कोल), a number (नम्पर), to tell
	// (सांग, कहो, जानान, चेप्प, हेळ, चोल्ल) or to put in the ear (कानावर).
	regionalAsk = []string{"बोलाय", "पेच", "माट्लाड", "माताड", "फोन", "कोल", "नम्पर", "सांग", "कहो", "जानान", "चेप्प", "हेळ", "चोल्ल", "कानावर"}
	// regionalAskWords are romanised: tell, talk, meet.
	regionalAskWords = words("sanga kaho keho bolun sollunga cheppandi vaat gal pesanum bheta")
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
	who := anyOf(shape, regionalWhoWords)
	ask := anyOf(shape, regionalAskWords)
	for _, w := range shape {
		who = who || startsAny(w, regionalWho)
		ask = ask || startsAny(w, regionalAsk)
	}
	named := anyOf(shape, headWords) || anyOf(shape, officeRoles) && !anyOf(shape, sirWord)
	return (who && (ask || anyOf(shape, phoneNumberWords)) || named && ask) && !dialled(shape)
}

var phoneNumberWords = words("number")

// startsAny reports w starting with one of stems.
func startsAny(w string, stems []string) bool {
	for _, s := range stems {
		if strings.HasPrefix(w, s) {
			return true
		}
	}
	return false
}
