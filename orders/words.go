package orders

import (
	"strings"
	"unicode"

	"github.com/munshi/munshi/internal/domain"
)

// paymentWords maps the canonical words of a message to payment modes.
var paymentWords = map[string]domain.PaymentMode{
	"cash": domain.PayCOD, "cod": domain.PayCOD, "nakad": domain.PayCOD, "naqad": domain.PayCOD, "nagad": domain.PayCOD,
	"kash": domain.PayCOD, "कैश": domain.PayCOD, "नकद": domain.PayCOD, "नगद": domain.PayCOD,
	"credit": domain.PayCredit, "udhaar": domain.PayCredit, "crdt": domain.PayCredit, "क्रेडिट": domain.PayCredit,
	"upi": domain.PayUPI, "gpay": domain.PayUPI, "phonepe": domain.PayUPI, "paytm": domain.PayUPI, "bhim": domain.PayUPI,
	"googlepay": domain.PayUPI, "यूपीआई": domain.PayUPI,
	"cheque": domain.PayCheque, "chq": domain.PayCheque, "cheq": domain.PayCheque, "chek": domain.PayCheque, "चेक": domain.PayCheque,
	"check": domain.PayCheque,
	"neft":  domain.PayBankTransfer, "rtgs": domain.PayBankTransfer, "imps": domain.PayBankTransfer,
	"netbanking": domain.PayBankTransfer,
}

// weakPaymentWords name a mode only beside a word about paying: "check"
// is also "please check".
var weakPaymentWords = map[string]bool{"check": true}

// paymentPhrases are two-word spellings. "phone pe" is not one: the
// normaliser reads it as PhonePe unless it was said on the phone ("phone
// pe bola").
var paymentPhrases = map[[2]string]domain.PaymentMode{
	{"bank", "transfer"}: domain.PayBankTransfer, {"online", "transfer"}: domain.PayBankTransfer,
	{"net", "banking"}: domain.PayBankTransfer, {"bank", "se"}: domain.PayBankTransfer,
	{"google", "pay"}: domain.PayUPI, {"गुगल", "pe"}: domain.PayUPI, {"by", "check"}: domain.PayCheque,
	{"on", "credit"}: domain.PayCredit, {"cash", "on"}: domain.PayCOD,
	// On the customer's account: "khate mein likh do" (Punjabi's "khate
	// vich"); Bengali's "baki te", Odia's "baki re".
	{"khate", "mein"}: domain.PayCredit, {"baaki", "te"}: domain.PayCredit, {"baaki", "re"}: domain.PayCredit,
}

// fillers may stand between a quantity and its product ("5 carton of GC",
// "10 peti ka phenyl", "GC wala 5 ctn") without breaking the binding.
var fillers = map[string]bool{"of": true, "ka": true, "ki": true, "ke": true, "x": true, "nos": true, "qty": true,
	"quantity": true, "wala": true, "ta": true}

// separators end a run of words ("5 pizza aur 2 GC").
var separators = map[string]bool{"aur": true, "and": true, "ani": true, "ane": true, "koro": true, "or": true, "plus": true, "for": true, "ke": true, "ko": true,
	"liye": true, "keliye": true, "bhi": true, "bhejo": true, "bhej": true, "dedo": true, "de": true, "do": true,
	"chahiye": true, "send": true, "order": true, "please": true, "pls": true, "payment": true, "with": true, "in": true,
	"se": true, "ka": true, "ki": true, "hai": true, "karo": true, "kar": true, "dena": true, "lena": true, "lo": true,
	"to": true, "ya": true, "mein": true, "pe": true, "par": true, "by": true, "the": true, "a": true, "an": true,
	// Words said to the listener, never part of a product's name.
	"yaar": true, "sorry": true, "me": true, "item": true,
	// Who did it: "shift 2 ne 600 bottle bhara".
	"ne": true}

// plainWords are everyday words of an order message that never name a
// product or a customer: they are skipped when quoting an unknown name.
var plainWords = words(`
	ek one do two
	hi hello namaste pranam ji sir bhai madam sahab saab seth boss dear team bro
	please pls kindly urgent jaldi asap abhi aaj kal parso today tomorrow tonight morning evening subah shaam
	new naya fresh same usual regular again phir bhi also only just sirf total
	order orders maal item items saman samaan product products stock
	send bhejo bhej bheja dedo de do dena lena lo chahiye karo kar deliver delivery dispatch supply
	want need give take book note likho likh
	hai tha hain ho hoga rahe raha
	customer party shop dukaan dukan store godown address shift
	ok okay theek haan yes no nahi na thanks
	rate price mrp discount scheme offer free bill invoice
	mera meri mere mujhe hum hamara apna uska unka iska yeh ye woh wo
	is am are was be it this that these those my our your his her their
	at on in of to from with by for as per each all every
	tak yahan wahan idhar udhar
	sa anna andi paaji kuda inka um vi naal nale sethu adhoda aa innu kooda innum hor anik pannunga
	bhidu re podhum
`)

// honorifics follow a person's name: "Verma ji ko".
var honorifics = words(`ji bhai sir sahab saab seth sethji babu uncle madam sa anna`)

// rangeWords join two quantities into a range ("5 se 6", "5 or 6").
var rangeWords = words(`to se ya or till`)

// correctionWords say that the quantity before was wrong ("5 nahi 6").
var correctionWords = words(`nahi no not na sorry galat wrong matlab actually sry nakko kaadu कादु koni`)

// andWords join the parts of one quantity ("2 carton aur 6 bottle").
var andWords = words(`aur and plus n`)

// eachWords say that one quantity is for every product of a list: "GC aur
// TC 5 ctn each", "dono 2 peti".
var eachWords = words(`each har harek dono both sab sabhi all`)

// afterNotQuantity are words that make the number before them something
// else than a quantity: a duration, a time, a date, a percentage, a price.
var afterNotQuantity = words(`
	day days din dino dinon week weeks month months year years
	baje bje bajey pm am hrs hr hour hours ghante ghanta minute minutes min mins
	tarikh tareekh date percent pct off discount tak
	rupees rs inr paise
`)

// beforeNotQuantity are words that make the number after them something
// else than a quantity: a price, a date, an address, a phone number.
var beforeNotQuantity = words(`
	rupees rs inr rate price mrp daam dam
	date tarikh tareekh dated
	number num shop plot sector gali flat room phone mobile mob pin pincode invoice bill
`)

// extraUnits are spellings of units that a message may use beside a number
// when the normaliser did not recognise them.
var extraUnits = map[string]string{"dz": "dozen", "dzs": "dozen", "pkg": "pack", "pkgs": "pack", "pck": "pack",
	"pcks": "pack"}

// words is the set of the words in s.
func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// hasLetter reports whether w has a letter in any script.
func hasLetter(w string) bool {
	for _, c := range w {
		if unicode.IsLetter(c) {
			return true
		}
	}
	return false
}
