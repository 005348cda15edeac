package intent

import "github.com/munshi/munshi/internal/domain"

// Handing over, said in words the handoff rules do not list: a person of
// the office asked for ("accounts wale se baat karwao", "can someone from
// the office call me"), or a figure of the books disputed ("mera balance
// galat hai", "the total in this bill is wrong"). Only the office can
// settle either, so both hand the conversation over; neither changes the
// books.

var (
	// officePeople are who a person may ask for; contactWords how.
	officePeople = words(`owner malik seth sir office insaan human person someone manager supervisor boss banda agent aadmi accounts staff
		team representative management head sahab saab madam munim munimji accountant billing ऑफिस मुनीम मैडम अकाउंटेंट STAFF
		owners accountants`)
	contactWords = words("baat talk speak connect phone call contact number escalate milna milne milo milwa milwao callback discuss landline फोन कॉल मिलवा मिलवाओ phn touch meet ring visit")
	// anyone asks for someone ("kisi se baat karao"), with "se" (to talk
	// with them) or a word for the writer ("koi mujhe call karega?"):
	// "kisi ko call karo" asks Munshi to call someone else.
	anyone  = words("koi kisi")
	towards = words("se mujhe me aapse")
	// humanWords ask for a person by themselves ("human agent please"),
	// or with a word of wanting ("I need a human").
	humanWords = words("human agent insaan representative")
	wanting    = words("need want chahiye please")
	// theirs make the office or the person someone else's; forMe ask for
	// the writer.
	theirs = words("uski uska unki unka his their")
	forMe  = words("mujhe mujhse me i back callback karao karwao")
	// officeRoles are the office's own, not anyone's boss or team.
	officeRoles = words("office accounts owner malik sir manager supervisor representative munim accountant ऑफिस मुनीम अकाउंटेंट STAFF")
	// notOffice are people and places that are not the distributor's:
	// "bank manager se milna hai", "the restaurant's bill was wrong", a
	// phone company.
	notOffice = words("bank loan branch restaurant dinner doctor plumber teacher exam train movie network bijli electricity reminder yaad bsnl jio airtel vodafone मकान")
	// wrongWords say a figure is wrong; figureWords name what Munshi
	// showed.
	wrongWords  = words("galat wrong incorrect mistake twice double gadbad missing mismatch jhooth bakwas")
	figureWords = words(`price rate total amount bill dues due gst hisab hisaab calculation quantity balance baaki
		stock figure entry charged outstanding account ledger owe receipt`)
	// A negation beside a word of right makes it one of wrong: "sahi
	// nahi", "not correct", "match nahi kar raha".
	rightWords = words("sahi correct theek right match")
)

// asksForPerson reports a person of the office asked for, to speak with,
// meet or be called back by, whatever the matter ("Can someone from your
// office call me back? … Mehta Traders credit limit"); or anyone asked
// for, with no family, customer, goods or number to dial in the message.
// Family and people who are not the office's never are.
func asksForPerson(shape []string) bool {
	if anyOf(shape, family) || notTheOffice(shape) || thankedAfterCall(shape) {
		return false
	}
	if anyOf(shape, humanWords) && (len(shape) <= 4 || anyOf(shape, wanting)) {
		return true // at any length: "… mujhe ek insaan chahiye jo mera hisaab samjhaye …"
	}
	if len(shape) > 20 {
		// A long message, such as a voice note's transcript: only the ask
		// that says who is wanted ("… koi jawab nahi deta, malik se baat
		// karao mujhe seedha"); looser asks are left to short messages,
		// where nothing else is said; or someone asked to reach the
		// writer in English ("please have someone senior contact me").
		return wantsTalkWith(shape) && toWriter(shape) || anyOf(shape, someoneWords) && followedBy(shape, contactWords, meOnly) ||
			lookedInto(shape) || someoneFrom(shape) && anyOf(shape, requestWords) || personNotBot(shape) || toldTheHead(shape)
	}
	if len(shape) <= 3 && anyOf(shape, wanting) && (anyOf(shape, headWords) || anyOf(shape, officeRoles) && !anyOf(shape, sirWord)) {
		return true // "owner please", "accounts please" ("sir please" pleads)
	}
	if anyOf(shape, anyone) && (anyOf(shape, personWords) || anyOf(shape, comePlaces)) && (anyOf(shape, sendSomeone) || anyOf(shape, bringWords)) &&
		!anyOf(shape, goodsOnly) {
		// "koi banda bhejo dukaan pe", "kisi ko dukaan pe bhejo", "kisi
		// aadmi ko line pe lao" ("koi aadmi bhejo maal uthane" fetches
		// goods)
		return true
	}
	if anyOf(shape, someoneWords) && anyOf(shape, helpWords) && !anyOf(shape, goodsOnly) {
		return true // "get me someone who can actually help"
	}
	for i := 0; i+2 < len(shape); i++ {
		k := i + 1
		if k+1 < len(shape) && honorifics[shape[k]] {
			k++ // "munim ji ko bhejna kal subah"
		}
		if officeRoles[shape[i]] && !sirWord[shape[i]] && k+1 < len(shape) && shape[k] == "ko" && sendSomeone[shape[k+1]] {
			return true // "हिसाब पूरा सेटल करना है, अकाउंटेंट को भेजो"
		}
		if sendSomeone[shape[i]] && (humanWords[shape[i+1]] || yours[shape[i+1]] && humanWords[shape[i+2]]) {
			return true // "Kindly send your representative to our hotel tomorrow"
		}
	}
	// "hello? koi hai office me?", "anyone there from office": anyone
	// there, at the office.
	if (followedBy(shape, anyone, isThere) || followedBy(shape, someoneWords, thereWords)) &&
		(anyOf(shape, officeRoles) && !anyOf(shape, sirWord) || len(shape) <= 3) && !anyOf(shape, goodsOnly) {
		return true
	}
	if sentOver(shape) {
		return true
	}
	// "arrange a meeting with the owner", "Get me someone from the
	// office", "koi insaan hai kya wahan?", "i need to escalate this",
	// "call me back asap", "office se kisi ko bhejo".
	if anyOf(shape, meetingWords) && anyOf(shape, metWith) || someoneFrom(shape) && (anyOf(shape, forMe) || anyOf(shape, comeOver)) ||
		anyOf(shape, humanWords) && anyOf(shape, anyone) && asked(shape, false) || anyOf(shape, escalateWords) ||
		callMeBack(shape) || anyOf(shape, officeRoles) && anyOf(shape, anyone) && anyOf(shape, sendSomeone) ||
		visitsOffice(shape) || whomToAsk(shape) || anyOf(shape, putWords) && anyOf(shape, throughWords) && anyOf(shape, officeRoles) ||
		supportAsked(shape) || escalatedUp(shape) || visitAsked(shape) || tellsToCall(shape) || explainAsked(shape) ||
		someoneToCall(shape) || inCharge(shape) || passedOn(shape) || numberAsked(shape) || callbackWanted(shape) ||
		regionalOfficeAsk(shape) || bareCallAsk(shape) || noAnswer(shape) || callAsked(shape) || lookedInto(shape) ||
		someoneFrom(shape) && anyOf(shape, requestWords) || personNotBot(shape) || talkPossible(shape) {
		return true
	}
	if !anyOf(shape, contactWords) {
		return false
	}
	if (anyOf(shape, staffWords) || wantsTalkWith(shape)) && toWriter(shape) {
		// One of the business's people, by name, to talk with: "Vikram
		// sir se baat karni hai City Hospital ke payment terms pe", the
		// customer being what it is about.
		return true
	}
	if anyOf(shape, officeRoles) && anyOf(shape, forMe) && !anyOf(shape, theirs) && !anyOf(shape, goodsOnly) &&
		!dialled(shape) {
		// The office asked for by the writer ("mujhe", "call me back",
		// "baat karao"), whichever customer it is about ("Can someone
		// from your office call me back? … Mehta Traders credit limit");
		// never someone else's office ("John ko uski office me milne …")
		// or a call Munshi is asked to make ("manager ko call karo").
		return true
	}
	return len(shape) <= 14 && (anyOf(shape, officePeople) || anyOf(shape, anyone) && anyOf(shape, towards)) &&
		!anyOf(shape, goodsOnly) && !anyOf(shape, customerWords) && !dialled(shape)
}

var (
	// meetingWords ask to meet; metWith are the office's people met with
	// ("sir" may be whoever the writer addresses, and a meeting in the
	// office is not one with it).
	meetingWords = words("meeting")
	metWith      = words("owner malik accounts manager supervisor")
	// someoneWords are anyone at all.
	someoneWords = words("someone somebody anyone")
	meOnly       = words("me")
	// requestWords ask in English: "please have someone from the office
	// look into it", "can someone from accounts check".
	requestWords = words("please pls kindly can could have ask need")
	// lookWords and intoWords look into a matter; willWords say the writer
	// will ("I'll look into it").
	lookWords = words("look")
	intoWords = words("into")
	willWords = words("ill will")
)

// lookedInto reports a matter asked to be looked into: "Please look into
// this", "Have accounts look into it", "need someone to look into it".
// The writer's own promise ("I'll look into it") asks nobody.
func lookedInto(shape []string) bool {
	for i := 0; i+1 < len(shape); i++ {
		if lookWords[shape[i]] && intoWords[shape[i+1]] && (i == 0 || !willWords[shape[i-1]]) {
			return true
		}
	}
	return false
}

// thankedAfterCall reports thanks for a call or a talk that took place:
// "thanks seth ji, baat ho gayi 🙏", "Priya madam ne call kar liya,
// dhanyavaad".
func thankedAfterCall(shape []string) bool {
	if !anyOf(shape, thanksWords) {
		return false
	}
	for i, w := range shape {
		if contactWords[w] && doneAfter(shape, i, completions) {
			return true
		}
	}
	return false
}

// wantsTalkWith reports the writer wanting to talk with the office's
// head, whatever the goods: "500 carton ka bada order hai, seth se
// direct baat karunga" ("Rajesh seth se baat hui" is the day's news).
func wantsTalkWith(shape []string) bool {
	for i := 0; i+2 < len(shape); i++ {
		if withYou[shape[i]] {
			// The business itself, whom the writer addresses: "aapse baat
			// karni hai abhi".
			rest := shape[i+1 : min(len(shape), i+5)]
			if anyOf(rest, contactWords) && anyOf(rest, talkWanted) {
				return true
			}
			continue
		}
		if i > 0 && ofWords[shape[i-1]] && !(i > 1 && yours[shape[i-2]]) {
			continue // "Mehta Traders ke munim se milna hai": theirs
		}
		elder := i > 0 && badeWords[shape[i-1]] && elderWords[shape[i]] // "bade bhaiya se milna hai"
		if !(headWords[shape[i]] || elder || officeRoles[shape[i]] && !sirWord[shape[i]]) {
			continue
		}
		k := i + 1
		if honorifics[shape[k]] {
			k++ // "seth ji se baat karni hai"
		}
		if shape[k] == "se" {
			rest := shape[k+1 : min(len(shape), k+5)]
			if anyOf(rest, contactWords) && anyOf(rest, talkWanted) {
				return true
			}
		}
	}
	return false
}

var (
	helpWords   = words("help")
	personWords = words("banda aadmi")
	sirWord     = words("sir")
	headWords   = words("seth malik owner boss")
	badeWords   = words("bade बडे")
	elderWords  = words("bhai bhaiya sahab")
	talkWanted  = words("karni karna karunga chahiye karao karwao karwa milna करनी")
	withYou     = words("aapse")
)

// notTheOffice reports people and places not the office's, and a
// reminder; "Gupta ji ne yaad kiya" (asked after someone) is no reminder.
func notTheOffice(shape []string) bool {
	for i, w := range shape {
		if notOffice[w] && !(w == "yaad" && i+1 < len(shape) && recalledWords[shape[i+1]]) && !(w == "reminder" && duesReminder(shape)) {
			return true
		}
	}
	return false
}

// duesReminder reports a reminder of the dues the office sent, which a
// shop disputes: "UTR 458210093311. Still showing as outstanding in your
// reminder", "aapke reminder me abhi bhi poora 35000 dikha rahe ho".
func duesReminder(shape []string) bool {
	return anyOf(shape, yours) && (anyOf(shape, dueWords) || anyOf(shape, modeWords) || anyOf(shape, shownIn))
}

var recalledWords = words("kiya kar")

// escalateWords take a matter to someone above by themselves.
var escalateWords = words("escalate escalation")

// haveDone have someone do it: "call back karwa do".
var (
	haveDone     = words("karwa")
	haveDoneNext = words("do dena dijiye")
)

// callMeBack reports a call back asked for the writer: "call me back
// asap", "mujhe call back karo" ("call back Rajesh" is a call to make).
func callMeBack(shape []string) bool {
	for i, w := range shape {
		if w != "back" || i == 0 {
			continue
		}
		me := shape[i-1] == "me" && i > 1 && contactWords[shape[i-2]]
		if me || contactWords[shape[i-1]] && (anyOf(shape[:i-1], forMe) || anyOf(shape[i+1:], forMe) || followedBy(shape[i+1:], haveDone, haveDoneNext)) {
			return !dialled(shape)
		}
	}
	return false
}

// visitsOffice reports the writer asking to come to the office: "kya
// main aapke office aa sakta hu kal?".
func visitsOffice(shape []string) bool {
	for i := 1; i+1 < len(shape); i++ {
		if shape[i] == "office" && yours[shape[i-1]] && comeWords[shape[i+1]] {
			return true
		}
	}
	return false
}

var (
	yours     = words("aapke aapka aapki your")
	comeWords = words("aa aau aana visit")
)

// whomToAsk reports the writer asking whom to talk to: "credit limit
// badhwani hai, kis se baat karu?", "Who can I call about a wrong
// delivery?" ("who will call Rajesh?" asks who does it).
func whomToAsk(shape []string) bool {
	for i := 0; i+2 < len(shape); i++ {
		if shape[i] == "kis" && shape[i+1] == "se" && contactWords[shape[i+2]] ||
			i+3 < len(shape) && shape[i] == "who" && whoAux[shape[i+1]] && weAsk[shape[i+2]] && contactWords[shape[i+3]] {
			return !dialled(shape)
		}
	}
	return false
}

// whoAux ask whom: "who can I call", "who do I speak to", "who should we
// talk to".
var whoAux = words("can do should")

// "can you put me through to the owner".
var (
	putWords     = words("put")
	throughWords = words("through")
)

// sendSomeone send a person: "office se kisi ko bhejo"; isThere asks who
// is there: "koi hai?".
var (
	sendSomeone = words("bhejo bhej send")
	isThere     = words("hai")
)

// someoneFrom reports someone asked for from the office: "someone from
// the office", "anyone from your accounts".
func someoneFrom(shape []string) bool {
	for i, w := range shape {
		if someoneWords[w] && i+2 < len(shape) && shape[i+1] == "from" && (anyOf(shape[i+2:min(len(shape), i+4)], officeRoles) || billingWords[shape[i+2]]) {
			return true
		}
	}
	return false
}

// dialled reports a number that may be one to dial: any but a time of
// day, a count of tries or a quantity ("11 baje tak", "3 baar puch liya",
// "500 carton").
func dialled(shape []string) bool {
	for i, w := range shape {
		if w == phNumber && !(i+1 < len(shape) && notDialled[shape[i+1]]) {
			return true
		}
	}
	return false
}

// notDialled count what a number before them is: hours, minutes, days
// and tries, goods ("500 carton") and a bound ("2 lakh tak").
var notDialled = words("baje baar UNIT tak din min ghante")

// disputesInWords reports a dispute no figure word need say: an order
// never placed ("ye ORD-1203 maine kabhi diya hi nahi", "I never ordered
// 10 cartons"), goods billed that never came ("bill me 6 box handwash hai
// par maal aaya hi nahi"), a discount promised and not on the bill, or a
// complaint, whatever it is about.
func disputesInWords(shape []string) bool {
	if notTheOffice(shape) {
		return false
	}
	if len(shape) > 24 {
		// A long message, such as a voice note's transcript: only the
		// disputes that say what is wrong with what. ("teeno jagah maal
		// de diya" tells of places, not of goods sent in another's
		// place.)
		return schemeMissing(shape) || spoiltReturned(shape) || rateDisputed(shape) || cancelledStillCame(shape)
	}
	switch {
	case anyOf(shape, complaintWords):
		// About the goods, an order, a delivery or the office's people,
		// or said in a few words ("complaint karni hai"): "wifi wale ki
		// complaint karo" is not the office's.
		return len(shape) <= 6 || anyOf(shape, complaintAbout) || anyOf(shape, goodsOnly)
	case anyOf(shape, ownWords) && anyOf(shape, neverWords) && (anyOf(shape, orderWordsOnly) || anyOf(shape, orderRefWords) || anyOf(shape, orderedWords)):
		return true
	case (anyOf(shape, documentWords) || anyOf(shape, chargedWords)) && neverCame(shape) && anyOf(shape, goodsOnly):
		return true // "phone ka bill nahi aaya" names no goods
	case anyOf(shape, discountWords) && (anyOf(shape, documentWords) || anyOf(shape, promisedWords)) &&
		(anyOf(shape, complaintAbout) || anyOf(shape, goodsOnly)):
		return true
	case shownBut(shape), notMine(shape), saidOtherwise(shape), notAdjusted(shape), overcharged(shape), shownDenied(shape),
		byMyReckoning(shape), cancelledStillCame(shape), wantsReplaced(shape), unsolved(shape), paidTwice(shape),
		limitQuestioned(shape), onWhatBasis(shape), spoiltReturned(shape), wrongGoodsSent(shape), rateDisputed(shape),
		schemeMissing(shape), serviceComplaint(shape), neverOrdered(shape), myDuesAskedWhy(shape), booksDiffer(shape),
		creditNoteMissing(shape), regionalDispute(shape), regionalNotShown(shape), spoiltSentWhy(shape), rudeStaff(shape),
		extraAsked(shape), takeBackAsked(shape), cameSpoilt(shape), figureFromWhere(shape):
		return true
	}
	return false
}

// overcharged reports a charge the writer questions, or money taken as
// too much: "cheque bounce ka charge kyu lagaya", "why am I being
// charged late fee", "late fee kab se lagne lagi", "bina bataye 1500 kaat
// liye, kyu?", "mera 2000 extra kaat liya aapne" ("2 labour extra lagaye
// the" is the day's news).
func overcharged(shape []string) bool {
	if (anyOf(shape, chargeWords) || anyOf(shape, extraWords)) && followedBy(shape, kisWords, reasonWords) ||
		anyOf(shape, chargeWords) && (anyOf(shape, howCome) || followedBy(shape, kisWords, reasonWords) || followedBy(shape, kabWords, sinceWords) || whatIsThis(shape)) ||
		anyOf(shape, overchargedWords) || anyOf(shape, deductWords) && anyOf(shape, whyWords) ||
		followedBy(shape, stillEnglish, chargeWords) || followedBy(shape, correctedWords, documentWords) {
		return true // "still charged for transport", "please issue a corrected invoice"
	}
	// "jhadu pe 18% GST kyu?": a tax asked why ("GST se base price
	// kaise nikalte hain" asks how to reckon it).
	// "ee extra 300 rupees yaake hakkidira bill alli?": money over the
	// bill asked why.
	return followedBy(shape, extraWords, deductWords) || followedBy(shape, extraWords, addedWords) || anyOf(shape, taxWords) && anyOf(shape, whyWords) ||
		anyOf(shape, extraWords) && anyOf(shape, howCome) && (anyOf(shape, documentWords) || anyOf(shape, paymentWords))
}

var (
	chargeWords    = words("charge charges charged fee interest deduction deducted penalty चार्ज कटौती")
	stillEnglish   = words("still")
	correctedWords = words("corrected")
	// overchargedWords say it outright: "overcharged again!!".
	overchargedWords = words("overcharged")
	// "kis baat ka", "kis cheez ka": on what account.
	kisWords    = words("kis")
	reasonWords = words("baat cheez")
	extraWords  = words("extra")
	taxWords    = words("gst")
	deductWords = words("kaat kaata kata")
	// addedWords add to a bill: "kuch na kuch extra jod dete ho".
	addedWords = words("jod joda")
	// kabWords and sinceWords ask since when: "kab se", "since when".
	kabWords   = words("kab since")
	sinceWords = words("se when")
)

// shortlyBefore reports a word of first with a word of next at most k
// words after it: "it is not in the statement", "match nahi kar raha".
func shortlyBefore(shape []string, first, next map[string]bool, k int) bool {
	for i, w := range shape {
		if first[w] && anyOf(shape[i+1:min(len(shape), i+1+k)], next) {
			return true
		}
	}
	return false
}

// toWriter reports the writer as the one to be talked with or called
// ("se", "mujhe", "me"), and no number to dial.
func toWriter(shape []string) bool {
	return (anyOf(shape, towards) || anyOf(shape, forMe)) && !dialled(shape)
}

// followedBy reports a word of first just before a word of next.
func followedBy(shape []string, first, next map[string]bool) bool {
	for i := 0; i+1 < len(shape); i++ {
		if first[shape[i]] && next[shape[i+1]] {
			return true
		}
	}
	return false
}

// disputesFigure reports a figure of the books said to be wrong, with no
// record, cancellation or draft in the message: "ye dues galat dikha rahe ho",
// "stock figure sahi nahi hai" ("reject D-52, rate galat hai" and "mat
// bhejo, rate wrong hai" give the reason to stop an order).
func disputesFigure(shape []string, n Normalized) bool {
	if len(shape) > 20 || !anyOf(shape, figureWords) || !saysWrong(shape) || anyOf(shape, cancelVerbs) || anyOf(shape, stopWords) ||
		anyOf(shape, notOffice) || anyOf(shape, draftWords) {
		return false
	}
	// Money said paid before is the writer's evidence, not a record:
	// "rajesh bhai ka balance galat dikha raha hai unhone 10000 pichle
	// hafte diya tha".
	return !deliverySignal(shape, n) && (!paymentSignal(shape) || followedBy(shape, payerWords, beingWords)) && !receivedSignal(shape)
}

// negatedBeside reports a negation just before or just after the word at
// i: "nahi aaya", "not correct", "match nahi".
func negatedBeside(shape []string, i int) bool {
	return i > 0 && negations[shape[i-1]] || i+1 < len(shape) && negations[shape[i+1]]
}

// doesNot deny in English what a word of right says: "doesnt match";
// couldWords say a figure could be ("nahi ho sakta").
var (
	doesNot    = words("doesnt")
	couldWords = words("sakta sakti")
)

// saysWrong reports a word of wrong, or of right denied.
func saysWrong(shape []string) bool {
	for i, w := range shape {
		switch {
		case wrongWords[w]:
			return true
		case rightWords[w] && (negatedBeside(shape, i) || i > 0 && doesNot[shape[i-1]]):
			return true
		case w == "itna" && anyOf(shape[i+1:min(len(shape), i+3)], negations) && anyOf(shape, owedWords):
			return true // "mera bakaya itna nahi hai", "itna baaki nahi hai" ("itna stock nahi chahiye" orders less)
		case negations[w] && i+2 < len(shape) && shape[i+1] == "ho" && couldWords[shape[i+2]]:
			return true // "78000 nahi ho sakta"
		}
	}
	return false
}

var (
	numberPlaceholder = words("NUM")
	stopWords         = words("mat stop")
	// draftWords name the writer's own draft: "quantity galat hai, ye
	// draft hatao" corrects or drops it.
	draftWords = words("draft")
)

// handsOff is a handoff said in other words, as a rule, and why; asking
// how to reach the office through Munshi ("how do i use this bot to
// contact your office") is help.
func handsOff(shape []string, n Normalized) (domain.Intent, string, bool) {
	in, why, ok := handOff(shape, n)
	if ok && asksHowTo(shape) {
		return domain.IntentUnknown, "", false
	}
	return in, why, ok
}

// handOff is handsOff before asking how is set apart.
func handOff(shape []string, n Normalized) (domain.Intent, string, bool) {
	switch {
	case disputesFigure(shape, n):
		return domain.IntentHandoff, handoffDisputed + ": a figure said to be wrong", true
	case bareDisagreement(shape):
		return domain.IntentHandoff, handoffDisputed + ": called wrong", true
	case disputesInWords(shape):
		return domain.IntentHandoff, handoffDisputed + ": in other words", true
	case paidStillOwed(shape):
		return domain.IntentHandoff, handoffDisputed + ": paid, still shown owed", true
	case asksForPerson(shape):
		return domain.IntentHandoff, handoffAsked + ": in other words", true
	case visitByStaffAsked(shape, n):
		return domain.IntentHandoff, handoffAsked + ": a visit from one of its people", true
	}
	return domain.IntentUnknown, "", false
}

// visitByStaffAsked reports one of the business's people, by name, asked
// to come over: "Can your sales guy Ravi come to the shop today?". Said
// without asking ("Ravi came to the shop today") it is news.
func visitByStaffAsked(shape []string, n Normalized) bool {
	if !anyOf(shape, staffWords) || !asked(shape, n.Question) || dialled(shape) {
		return false
	}
	// "… come to the shop", "… come over"; "come back from leave" asks
	// after them.
	return anyOf(shape, visitWord) || shortlyBefore(shape, comeWord, comePlaces, 3)
}

var (
	visitWord, comeWord = words("visit"), words("come")
	comePlaces          = words("shop store dukaan dukan here over")
)

// whatIsThis reports "ye kya hai", asked of what the message names: "₹2,340
// ka interest? ye kya hai".
func whatIsThis(shape []string) bool {
	for i := 0; i+2 < len(shape); i++ {
		if thisWords[shape[i]] && shape[i+1] == "kya" && shape[i+2] == "hai" {
			return true
		}
	}
	return false
}

// sentOver reports a person asked to be sent to the shop: a man ("aadmi
// bhejo shop pe") or one of the office's people by role or name ("Sunil
// bhai ko dukaan pe bhejo"), with no goods to fetch.
func sentOver(shape []string) bool {
	if !anyOf(shape, sendSomeone) || !anyOf(shape, comePlaces) || anyOf(shape, goodsOnly) {
		return false
	}
	if anyOf(shape, personWords) {
		return true
	}
	for i := 0; i+1 < len(shape); i++ {
		k := i + 1
		if honorifics[shape[k]] && k+1 < len(shape) {
			k++
		}
		if officeRoles[shape[i]] && !sirWord[shape[i]] && shape[k] == "ko" {
			return true
		}
	}
	return false
}
