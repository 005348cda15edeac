package intent

import (
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// commonWords are everyday English and Hinglish words that are never a
// product or customer name on their own, whatever a catalog says, and
// never read as a misspelt one.
const commonWords = `
a an the is am are was were be been being to of in on at by for from with about as into over under
and or but if then than so not no yes this that these those it its i me my we us our you your he
she him her they them their what which who whom whose when where why how all any some each every
much many more most less few other another same such only own just also very too can could will
would shall should may might must do does did done have has had having get got go going come send
give take make show tell check call please thanks want need like know see look find help hello hi
hey today tomorrow yesterday now later week month year day days time new old good bad ok okay
main mera meri mere hum hamara tumhara uska unka iska yeh ye woh wo vo voh isko usko inko unko
jo jab tab kab kahan yahan wahan kyun kaise kaisa kitna kya kaun koi kuch sab sabhi bhi hi to toh
par pe se mein me ka ki ke ko ne tak wala wali wale aur ya lekin magar phir fir abhi aaj kal parso
din raat subah shaam dopahar baje ghante minute second hafta mahina saal naya purana accha acha
bahut thoda zyada kam jaldi der haan nahi mat na ji sir bhai didi madam sahab ek do teen
karo karna kiya kar hai ho hain tha thi the hoga hogi rahe raha rahi gaya gayi liya diya lena dena
lo le de dedo bhejo bhej chahiye sakte sakta milega mila batao dikhao suno dekho chalo ruko
order orders stock report sales customer customers product products item items price rate bill
payment paise rupees amount total list status number message phone
about above after again against along already although always among answer anyone anything
around asked available away back based became because become before began behind being below
better between bloom board bring brook brought build building business buyer called came cannot
carry cause certain change chance cheap child children class clean clear close coming common
could country course cover create cross daily death decide different doing during early earth
either empty enough entire every everyone everything example family field final finally first
floor follow found friend front given going great green group happen happy heard heart heavy
house human important inside issue keeping known large later learn least leave light little
living local longer lower major maybe means might minute model money morning mother moving music
never night number offer often order other others outside paper party people period person
phone picture piece place plant point power press price print problem public quick quite radio
ready really reason right round second seems sense service several shall short should simple
since small sound space speak special stand start state still store story study style table
taken thing think third those though three through today together total toward trade train
tried truck under until using usual value voice wait water where which while white whole whose
woman women world would write wrong young yours colon groom brooms comma finals mobile
sorry photo video movie songs gaadi chalo chaliye kitne kitni bahut accha thoda zaroor zarur
dekho suniye bolo bolna samajh samjha samjhe pehle baad waala sabko sabka unhe unko inhe
tumhe hamein humein
`

var (
	reserved = buildReserved(true, true)
	// greetingOnly are the words reserved only because greetings read
	// them: "ram", "krishna", "jai", "shri". Distributors are named after
	// them (Shree Krishna Traders, Ram Traders), so such a customer name is
	// kept as a weak name: the order parser and the questions read it,
	// routing reads the word.
	greetingOnly = reservedOnlyBy(buildReserved(false, true))
	// allowedOnly are the words reserved only because a rule allows them
	// beside the words it needs: "kalsi" (Kannada's send, said after
	// asking everyone's dues), "hor", "yaar". A customer called Kalsi is
	// kept as a weak name, as one named after a god is.
	allowedOnly = reservedOnlyBy(buildReserved(true, false))
)

// reservedOnlyBy is the reserved words that outside, the words reserved
// without some rules' words, lacks.
func reservedOnlyBy(outside map[string]bool) map[string]bool {
	only := map[string]bool{}
	for w := range reserved {
		if !outside[w] {
			only[w] = true
		}
	}
	return only
}

// buildReserved collects the reserved words; withGreetings says whether
// the greeting rules' words are among them, withAllowed whether the words
// the rules only allow are.
func buildReserved(withGreetings, withAllowed bool) map[string]bool {
	reserved := map[string]bool{}
	for _, w := range strings.Fields(commonWords) {
		reserved[w] = true
	}
	for k, c := range canonicalWords {
		reserved[k] = true
		for _, w := range c {
			reserved[w] = true
		}
	}
	for w := range builtinUnits {
		reserved[w] = true
	}
	for w := range numberWords {
		reserved[w] = true
	}
	for w := range measureSuffixes {
		reserved[w] = true
	}
	// Every word a rule or a plausibility check reads.
	add := func(set map[string]bool) {
		for w := range set {
			if !isPlaceholder(w) {
				reserved[w] = true
			}
		}
	}
	for _, r := range rules {
		if r.intent == domain.IntentGreeting && !withGreetings {
			continue
		}
		for _, g := range r.need {
			add(g)
		}
		if withAllowed {
			add(r.allow)
		}
	}
	for _, set := range []map[string]bool{fillers, confirmWords, cancelWords, orderWords} {
		add(set)
	}
	return reserved
}

// reservedWord reports words that routing depends on or that are too common
// to name one thing.
func reservedWord(w string) bool { return reserved[w] }

// allIn reports every word of shape in one of sets, or a filler.
func allIn(shape []string, sets ...map[string]bool) bool {
	for _, w := range shape {
		if !fillers[w] && !inAny(w, sets) {
			return false
		}
	}
	return true
}

func inAny(w string, sets []map[string]bool) bool {
	for _, set := range sets {
		if set[w] {
			return true
		}
	}
	return false
}

func anyOf(shape []string, set map[string]bool) bool {
	for _, w := range shape {
		if set[w] {
			return true
		}
	}
	return false
}
