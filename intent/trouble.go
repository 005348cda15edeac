package intent

// A problem reported with the goods, a bill or the service, in words no
// narrower rule reads: goods missing or short of the bill, spilt, broken
// or not working; money paid and not shown; a shop losing sales. Only
// the office can settle it, and the model could only guess at a figure,
// so such a message goes to a person rather than to the LLM. It is read
// last, once every other reading has left the message unread, so an
// order, a record or a question that mentions a problem reads as before.

var (
	// troubleAbout is what a problem of the business is with: its goods,
	// bills, deliveries and people.
	troubleAbout = words("PRODUCT UNIT ORDERREF CUSTOMER maal bill billed bills invoice statement ledger receipt delivery salesman batch order")
	// troubleSigns say something is wrong, in words a report of goods
	// handed over or come in does not use.
	troubleSigns = words("gayab naraz bikhra none smells losing galat wrong")
	// troubleCounted say goods came short or spoilt: trouble when the
	// writer speaks for the shop that got them ("hume 8 carton hi mile")
	// or holds them against the bill ("Got only 1 carton of soap,
	// invoice says 3"); news when a salesperson or the godown reports
	// them ("1 carton sabun kam nikla", "do phooti hui").
	// Punjabi's ghatt, Kannada's kammi and Telugu's takkuva are kam.
	troubleCounted = words("kam short only सिर्फ कम chhota ghatt kammi takkuva")
	// shopVoice is the shop that got the goods speaking (Punjabi's
	// saadde and Kannada's namma are our).
	shopVoice = words("hume humein hamara humara hamare humare we our us your aapka aapke aapki saadde namma")
	// billedWords are the bill the goods are held against.
	billedWords = words("bill billed invoice बिल")
	// workingWords say goods do not work: "pump kaam nahi kar rahe".
	workingWords = words("kaam working")
	// foundWords say what the goods turned out to be once opened: "6
	// bottle phooti nikli".
	foundWords = words("nikli nikle")
	// handedHi hand goods over, as a delivery says it in Devanagari.
	handedHi = words("सौंपा")
)

// reportsTrouble reports a problem with the business's goods, bills or
// service, for the office.
func reportsTrouble(shape []string) bool {
	if anyOf(shape, otherServices) || anyOf(shape, family) || anyOf(shape, notOffice) || anyOf(shape, finishedWords) || !anyOf(shape, troubleAbout) {
		return false
	}
	if anyOf(shape, troubleSigns) || followedBy(shape, workingWords, negations) || shortlyBefore(shape, negations, ledgers, 3) {
		return true
	}
	spoilt := spoiltSaid(shape)
	counted := spoilt || anyOf(shape, troubleCounted)
	if !counted || anyOf(shape, handedWords) || anyOf(shape, handedHi) {
		return false // "बिल १५१३ ग्राहक को सौंपा, दो दर्जन पोछा कम" is a delivery
	}
	return anyOf(shape, shopVoice) || anyOf(shape, billedWords) || spoilt && anyOf(shape, foundWords)
}

// shopComplains reports the shop that got the goods writing of them, as
// no report of a delivery does: of the business's delivery man ("Aapke
// delivery wale ne 2 carton kam utaare"), or asking for goods to be
// replaced in its own voice ("The mops supplied last week are shedding
// badly, we need them replaced"), or a credit note for them said missing.
// "1 bag surf phata mila wo replace karna padega" reports a delivery.
func shopComplains(shape []string) bool {
	return followedBy(shape, yours, deliveryOnly) || anyOf(shape, shopWe) && remedied(shape) || creditNoteMissing(shape)
}

var (
	deliveryOnly = words("delivery")
	// shopWe is the shop speaking of itself.
	shopWe = words("we our us hume hamara humara")
)
