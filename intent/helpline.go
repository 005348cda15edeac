package intent

import "strings"

// More ways of asking for the office, or of raising a matter only it can
// settle: its help line, someone above, a visit, word passed to call,
// anyone to call, who is in charge, a paper explained; damaged goods to
// replace, a matter nobody settles, money taken twice, a credit limit
// questioned, a charge asked how it was reckoned.

// supportAsked reports the office's line for help asked for: "customer
// care ka number kya hai aapka", "is there a helpline number", "koi
// support number hai?", "transfer me to a real person". A word before
// the line that is not the writer's or the office's names someone
// else's ("jio customer care").
func supportAsked(shape []string) bool {
	for i, w := range shape {
		line := helplineWords[w] || w == "customer" && i+1 < len(shape) && shape[i+1] == "care" ||
			supportWords[w] && i+1 < len(shape) && (contactWords[shape[i+1]] || shape[i+1] == "team")
		if line && (i == 0 || beforeLine[shape[i-1]]) {
			return true
		}
	}
	// Put through: "transfer me to …", "transfer my call to accounts"
	// ("paise transfer me time lagega" is money moved).
	for i := 0; i+2 < len(shape); i++ {
		me := forMe[shape[i+1]] || shape[i+1] == "my" && contactWords[shape[i+2]]
		if transferWords[shape[i]] && me && anyOf(shape[i+2:], toWords) {
			return !dialled(shape)
		}
	}
	return false
}

var (
	helplineWords = words("helpline")
	supportWords  = words("support")
	transferWords = words("transfer")
	toWords       = words("to")
	// beforeLine may stand before the office's line: the writer's words,
	// the office's, an article.
	beforeLine = words("to your aapke aapka aapki the a koi")
)

// wantsReplaced reports damaged goods asked to be replaced or taken back:
// "maal kharab aaya hai, replacement chahiye", "expiry wala maal hai,
// wapas karo". Goods that came as a replacement ("replacement wala maal
// aa gaya") or were sent back ("wapas bheja", "return kar diye") are the
// day's news.
func wantsReplaced(shape []string) bool {
	spoilt := anyOf(shape, damageWords) || anyOf(shape, expiryWords)
	return spoilt && (anyOf(shape, replaceWords) || followedBy(shape, returnWords, imperatives) || followedBy(shape, backAgain, takeAsked))
}

var (
	replaceWords = words("replacement replace")
	// backAgain and takeAsked ask for goods to be taken back or changed
	// in Marathi, Tamil, Telugu and Kannada: "parat nya", "parat ghya",
	// "thirumba eduthukonga", "venakki teesukondi", "badalisi kodi"
	// ("parat ghetle" took them back).
	backAgain   = words("parat thirumba venakki badalisi")
	takeAsked   = words("nya eduthukonga teesukondi kodi ghya")
	expiryWords = words("expiry")
)

// escalatedUp reports a matter taken above whoever answered: "upar
// baat karao", "upar wale se baat karo", "is matter ko upar tak le jao"
// ("upar wali shelf" is a place).
func escalatedUp(shape []string) bool {
	for i := 0; i+1 < len(shape); i++ {
		if shape[i] != "upar" {
			continue
		}
		next := shape[i+1]
		if contactWords[next] || next == "wala" && i+2 < len(shape) && towards[shape[i+2]] || next == "tak" && anyOf(shape, issueWords) {
			return true
		}
	}
	return false
}

// issueWords name a matter the writer raises.
var issueWords = words("issue problem matter")

// unsolved reports a matter nobody settles, or someone asked for to
// settle one of the books: "koi solve nahi kar raha", "nobody is solving
// my problem", "wrong items delivered, need someone to sort this out"
// ("need someone to pick up the cartons" asks for a hand).
func unsolved(shape []string) bool {
	if !anyOf(shape, solveWords) {
		return false
	}
	if anyOf(shape, nobodyWords) || anyOf(shape, anyone) && anyOf(shape, negations) {
		return true
	}
	business := anyOf(shape, figureWords) || anyOf(shape, documentWords) || anyOf(shape, deliveredWords) || anyOf(shape, billingWords)
	return anyOf(shape, someoneWords) && anyOf(shape, wanting) && business
}

var (
	solveWords   = words("solve solving sort fix fixing resolve")
	nobodyWords  = words("nobody")
	billingWords = words("billing")
)

// paidTwice reports money taken twice: "2 baar paisa kat gaya", "payment
// double deduct ho gaya", "ek hi bill ka 2 baar kaat liya" ("bijli 2
// baar kat gayi" takes no money).
func paidTwice(shape []string) bool {
	twice := anyOf(shape, twiceWords) || followedBy(shape, timesWords, baarWords)
	money := anyOf(shape, paymentWords) || anyOf(shape, documentWords) || anyOf(shape, figureWords)
	return twice && money && (anyOf(shape, deductWords) || anyOf(shape, takenWords) || anyOf(shape, lagaWords))
}

var (
	twiceWords = words("double twice")
	timesWords = words("NUM do दो")
	baarWords  = words("baar")
	takenWords = words("kat deduct deducted cut")
	// lagaWords put a charge on a paper: "GST do baar laga diya".
	lagaWords = words("laga lagaya lagi lag chadha")
)

// visitAsked reports someone asked to come and talk: "dukaan pe aake
// baat karo mere se".
func visitAsked(shape []string) bool {
	return followedBy(shape, cameWords, contactWords) && !dialled(shape)
}

var cameWords = words("aake aakar")

// tellsToCall reports word passed to the office's people, whoever the
// writer calls sahab, or anyone there, to call or talk: "sahab ko bolo
// mujhse baat kare", "urgent hai, kisi ko bolo turant call kare".
func tellsToCall(shape []string) bool {
	for i := 0; i+3 < len(shape); i++ {
		who := sahabWords[shape[i]] || officeRoles[shape[i]] || headWords[shape[i]] || anyone[shape[i]] || shape[i] == "ji" && i > 0 && officePeople[shape[i-1]] ||
			shape[i] == "wala" && i > 0 && accountsOf[shape[i-1]] // "hisaab wale ko bolo phone karein"
		k := i + 1
		if who && honorifics[shape[k]] && k+3 < len(shape) {
			k++ // "Vikram bhai ko bolo mujhe phn kare"
		}
		if who && shape[k] == "ko" && tellWords[shape[k+1]] {
			after := shape[k+2:]
			return (anyOf(after, contactWords) || anyOf(after, comeOver) || anyOf(after, accountWords) || anyOf(after, calledFor)) && !dialled(shape)
		}
	}
	// In English: "please tell the owner I called", "ask Vikram sir to
	// talk to Mehta ji" ("tell the customer to call" is Munshi's errand).
	for i := 0; i+2 < len(shape); i++ {
		if !tellEnglish[shape[i]] {
			continue
		}
		who := shape[i+1]
		if theOffices[who] {
			who = shape[i+2]
		}
		if (officeRoles[who] || sahabWords[who] || headWords[who]) && (anyOf(shape[i+2:], contactWords) || anyOf(shape[i+2:], calledWords)) {
			return !dialled(shape)
		}
	}
	return false
}

var (
	tellEnglish = words("tell ask inform")
	theOffices  = words("the your")
	calledWords = words("called")
	sahabWords  = words("sahab saab STAFF")
	tellWords   = words("bolo batao bata bolna batana message संदेश")
	// calledFor say someone asked after the office ("Gupta ji ne yaad
	// kiya"); accountWords are the writer's account to settle.
	calledFor = words("yaad bulaya")
	// accountsOf make "wala" the office's accounts people.
	accountsOf = words("hisaab accounts billing")
	// comeOver ask the office's person to come ("dukan pe aa jaye").
	comeOver = words("visit jaye aaye जाएं")
)

// explainAsked reports a paper or the writer's account asked to be
// explained: "mujhe ye bill samajh nahi aaya, koi samjhao". How to ask
// the bot something is help ("explain the commands", "kaise dekhte
// hain").
func explainAsked(shape []string) bool {
	return anyOf(shape, explainWords) && (anyOf(shape, documentWords) || anyOf(shape, accountWords)) &&
		!anyOf(shape, botWords) && !anyOf(shape, askHow)
}

var (
	explainWords = words("samjhao samjha samjhaiye explain")
	accountWords = words("hisaab hisab ledger calculation")
	botWords     = words("bot command commands")
	askHow       = words("kaise how")
)

// limitQuestioned reports a credit limit asked why, or asked to be
// raised: only the office sets it. "mera credit limit kam kyu kar diya",
// "credit limit badhao please" ("how much is his outstanding vs limit"
// asks the figures, "card ki limit badhwani hai" the bank).
func limitQuestioned(shape []string) bool {
	return anyOf(shape, limitWords) && anyOf(shape, whyWords) || followedBy(shape, limitWords, raiseWords)
}

var (
	limitWords = words("limit")
	whyWords   = words("kyu kyun why")
	raiseWords = words("badhao badha badhane badhana increasing")
)

// someoneToCall reports anyone asked to call: "koi phone karo", "koi call
// karega?", "please have someone call me regarding a large order" ("koi
// baat nahi" is no matter).
func someoneToCall(shape []string) bool {
	for i := 0; i+2 < len(shape); i++ {
		if (anyone[shape[i]] || someoneWords[shape[i]]) && callWords[shape[i+1]] && (doWords[shape[i+2]] || forMe[shape[i+2]]) {
			return !dialled(shape)
		}
	}
	return false
}

var (
	callWords = words("phone call")
	doWords   = words("karo kare karega karna")
)

// inCharge reports who is in charge asked: "who is in charge there",
// "yahan incharge kaun hai".
func inCharge(shape []string) bool {
	charge := anyOf(shape, inchargeWords) || followedBy(shape, inWords, chargeWords)
	return charge && anyOf(shape, whoWords)
}

var (
	inchargeWords = words("incharge")
	inWords       = words("in")
	whoWords      = words("who kaun")
)

// onWhatBasis reports a charge asked how it was reckoned: "ye rate kis
// hisaab se lagaya".
func onWhatBasis(shape []string) bool {
	for i := 0; i+2 < len(shape); i++ {
		if shape[i] == "kis" && shape[i+1] == "hisaab" && shape[i+2] == "se" {
			return anyOf(shape[:i], figureWords) || anyOf(shape[i+3:], lagaWords)
		}
	}
	return false
}

// passedOn reports a message asked to be passed to the office's people:
// "Kindly pass a message to the owner that Gupta Brothers wants to
// discuss the new scheme", "owner ko mera msg de do".
func passedOn(shape []string) bool {
	if toldTheHead(shape) {
		return true
	}
	for i, w := range shape {
		if !passWords[w] {
			continue
		}
		rest := shape[i+1 : min(len(shape), i+7)]
		if anyOf(rest[:min(len(rest), 2)], messageWords) && (anyOf(rest, officeRoles) || anyOf(rest, headWords)) {
			return true
		}
	}
	return false
}

var (
	passWords    = words("pass")
	messageWords = words("message msg")
	givenOn      = words("de dena dedo pahuncha forward kar karo")
	// summonWords send for someone: "OWNER KO BULAO".
	summonWords = words("bulao")
	// tellGiven follow "bol" when it tells: "boss ko bol do"; toldBefore
	// when it was told ("owner ko bata diya tha" is news).
	tellGiven  = words("do dena dedo")
	toldBefore = words("diya di tha")
)

// toldTheHead reports word for the head of the office anywhere in the
// message (toTheHead).
func toldTheHead(shape []string) bool {
	for i := range shape {
		if toTheHead(shape, i) {
			return true
		}
	}
	return false
}

// toTheHead reports word for the head of the office, or one of its people
// by name, at i: a message given ("owner ko mera msg de do ki …", "sahab
// ko message de do", "Vikram sir ko mera msg forward kar do"), word told
// ("BOSS KO BOLO SHARMA JI NARAZ HAI", "boss ko bol do ki …") or taken up
// ("Vikram sir tak baat pahuncha do"), or the head sent for ("OWNER KO
// BULAO"), whatever it says. "sahab" counts only first ("Sharma sahab" is
// a customer), and nobody else's head does ("Gupta Supermart ke manager
// ko"). Told with goods beside, it orders ("malik ko bata dena next week
// aur bada order aayega").
func toTheHead(shape []string, i int) bool {
	w := shape[i]
	head := officeRoles[w] && !sirWord[w] || headWords[w] || w == "STAFF" || sahabWords[w] && i == 0
	if !head || i > 0 && ofWords[shape[i-1]] {
		return false
	}
	k := i + 1
	if k < len(shape) && (honorifics[shape[k]] || shape[k] == "wala") {
		k++ // "Vikram sir ko", "accounts wali ko"
	}
	if k+1 >= len(shape) {
		return false
	}
	next := shape[k+1]
	switch shape[k] {
	case "ko":
		rest := shape[k+1 : min(len(shape), k+4)]
		return anyOf(rest, messageWords) && anyOf(rest, givenOn) || summonWords[next] ||
			(tellWords[next] && (k+2 == len(shape) || !toldBefore[shape[k+2]]) || next == "bol" && k+2 < len(shape) && tellGiven[shape[k+2]]) &&
				!anyOf(shape, goodsOnly)
	case "tak":
		return next == "baat" && k+2 < len(shape) && givenOn[shape[k+2]]
	}
	return false
}

// numberAsked reports the number of the office's head asked for in a
// few words: "malik ka no.", "seth ji ka no".
func numberAsked(shape []string) bool {
	if len(shape) > 6 {
		return false
	}
	for i := 0; i+2 < len(shape); i++ {
		if (headWords[shape[i]] || officeRoles[shape[i]] && !sirWord[shape[i]]) && ofWords[shape[i+1]] && shape[i+2] == "no" {
			return true
		}
	}
	return false
}

// callbackWanted reports a call back asked for: "can i get a callback
// today before 5pm", "callback chahiye", "mujhe callback chahiye
// 9810000007 pe" (the writer's own number, called on) ("mujhe customer
// ko callback karna hai" is the writer's own call to make).
func callbackWanted(shape []string) bool {
	onMine := anyOf(shape, forMe) && followedBy(shape, numberPlaceholder, calledOn)
	return anyOf(shape, callbackWords) && (anyOf(shape, wanting) || anyOf(shape, getWords)) && (!dialled(shape) || onMine)
}

// calledOn put a call on a number: "9810000007 pe".
var calledOn = words("pe par on")

var (
	callbackWords = words("callback")
	getWords      = words("get")
	// bringWords put a person on the line: "kisi aadmi ko lagao".
	bringWords = words("lagao लाओ")
)

// bareCallAsk reports a call or a talk asked for and nothing else: "baat
// karni hai", "HELLO KOI HAI??? PHONE UTHAO", "sir ek min call karo",
// "urgent callback chahiye". Whoever is to be called ("mummy ko call
// karo", "video call karo") or anything more leaves it to the others.
func bareCallAsk(shape []string) bool {
	called := false
	for _, w := range shape {
		switch {
		case callCore[w]:
			called = true
		case !callFiller[w]:
			return false
		}
	}
	return called
}

var (
	callCore   = words("baat call phone callback")
	callFiller = words("karni karna hai kar karo kara kare lijiye kijiye chahiye do dena uthao me back sir ji please ek baar min zara mujhe hello koi urgent jaldi asap abhi thanks now")
)

// noAnswer reports the office's people said not to answer the phone:
// "aapke godown wale phone hi nahi uthate" ("uber ka driver phone nahi
// utha raha" is another service's).
func noAnswer(shape []string) bool {
	return anyOf(shape, yours) && (anyOf(shape, callCore) && followedBy(shape, negations, pickedUp) ||
		anyOf(shape, officeRoles) && followedBy(shape, nobodyWords, picksWords)) &&
		!anyOf(shape, otherServices) && !anyOf(shape, family)
}

// pickedUp and, in English, nobody picks up: "trying to reach someone
// at your office since Monday, nobody picks up".
var pickedUp, picksWords = words("uthate uthata utha"), words("picks")

// callAsked reports a call asked of the office: a word of calling and,
// within a few words, one that asks for it ("call karo", "phone kar
// lena", "ring me", "CALL ME. NOW.", "koi bhi call kar lo yaar"), with
// no one else to be called or to call ("Rajesh ko call karo", "amma ge
// call maadi", "tell the customer to call me", "9876543210 pe call
// karo"), no call of another kind ("video call karo", "call me a cab",
// an alarm to ring, a wake-up call), no call the writer means to make
// ("phone karna chahiye") and no one's words reported ("owner ne kaha
// aage se pehle call karna").
func callAsked(shape []string) bool {
	if !anyOf(shape, callAny) || anyOf(shape, family) || anyOf(shape, otherServices) || notTheOffice(shape) || anyOf(shape, calledSomeone) ||
		anyOf(shape, notAsCall) || anyOf(shape, recipients) || anyOf(shape, saidThat) || dialled(shape) ||
		anyOf(shape, messageWords) && anyOf(shape, relayed) && !anyOf(shape, officeRoles) && !anyOf(shape, headWords) {
		return false // a message that someone not of the office is to pass on ("… ki …") is an errand
	}
	for i, w := range shape {
		if !callAny[w] {
			continue
		}
		if i > 0 && len(shape[i-1]) > 3 && strings.HasSuffix(shape[i-1], "ge") {
			return false // Kannada's "to": "tammanige phone maadi"
		}
		for j := i + 1; j < len(shape) && j <= i+3; j++ {
			next := ""
			if j+1 < len(shape) {
				next = shape[j+1]
			}
			switch {
			case shape[j] == "me":
				return next != "a" && next != "at"
			case callAsks[shape[j]], shape[j] == "lena" && shape[j-1] == "kar":
				return !(shape[j] == "karna" && (next == "hai" || next == "tha" || next == "chahiye"))
			case !callBetween[shape[j]]:
				j = len(shape)
			}
		}
	}
	return false
}

var (
	// callAny are the words of a call, as Devanagari writes them too.
	callAny     = words("phone call ring callback फोन कॉल")
	callAsks    = words("karo lo lijiye kijiye karein karen kare kariye karna kara")
	callBetween = words("kar ek baar zara jaldi please sir ji abhi turant mujhe hume")
	// calledSomeone put someone else before the call: "Rajesh ko", Kannada's
	// "-ge", Tamil's "-ku".
	calledSomeone = words("ko ge ku usko unko")
	// notAsCall are calls of another kind: a video call, a wake-up call,
	// an alarm.
	notAsCall = words("video utha alarm")
	// saidThat report what someone said: "X ne kaha"; relayed put what is
	// to be passed on after it.
	saidThat = words("kaha bola boli")
	relayed  = words("ki that")
)

// onlyBot names Munshi as a bot; peopleWords a person, in the words the
// languages use ("manush", "manushya", "aal"); realWords a person who is
// one; baatWords talk.
var (
	onlyBot     = words("bot")
	peopleWords = words("aadmi insaan human person manush manus manushya aal aalodu banda")
	realWords   = words("real actual")
	baatWords   = words("baat")
)

// personNotBot reports a person asked for instead of the bot: "bot nahi,
// aadmi chahiye", "bot venaam, aal kitta pesanum", "bot se baat nahi
// karni", "REAL PERSON PLEASE". The bot alone called names ("bakwas bot
// hai ye") asks for nobody.
func personNotBot(shape []string) bool {
	return anyOf(shape, onlyBot) && (anyOf(shape, peopleWords) || followedBy(shape, baatWords, negations)) ||
		followedBy(shape, realWords, peopleWords)
}

// namedCustomer is a customer named from the list.
var namedCustomer = words("CUSTOMER")

// talkPossible reports a talk asked whether it can be had: "sir ek minute
// baat ho sakti hai kya?", "kya main kisi se baat kar sakta hoon?". With
// a customer named the talk is with them ("Mehta ji se baat ho sakti hai
// kya" is no ask for the office).
func talkPossible(shape []string) bool {
	if anyOf(shape, namedCustomer) {
		return false
	}
	for i := 0; i+2 < len(shape); i++ {
		if baatWords[shape[i]] && (shape[i+1] == "ho" || shape[i+1] == "kar") && ableWords[shape[i+2]] {
			return true
		}
	}
	return false
}
