package intent

import (
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// Tier 1: rules for the unambiguous. A rule reads the shape of a message
// (canonical words, entities as placeholders) as a bag of words: it fires
// when every group of needed words is present and every other word is one
// it allows. One stray word ("ok google", "cancel my uber", "pending
// amazon order") and the rule stays silent, leaving the message to the
// model. When rules of different intents fire together, none does.
type rule struct {
	name     string
	intent   domain.Intent
	need     []map[string]bool
	allow    map[string]bool
	maxLen   int
	notAsked bool // the message must not be a question
	// asked: the message must be a question, with a question mark, a
	// question word or "… ki nahi".
	asked bool
	// codes allows words of letters and digits: references such as
	// "UTR991" or "CHQ123".
	codes bool
	// signal is the evidence a change to the books needs beyond its words
	// (see lifecycle.go); unless vetoes a message that records one.
	signal, unless record
}

// The rules that hand a conversation over name why, so that the
// decision carries it (HandoffReason).
const (
	handoffAsked    = "handoff: asked for a person"
	handoffDisputed = "handoff: disputes what Munshi said"
)

// HandoffReason is why a decision routed to handoff hands over: "asked"
// for a person, or "dispute" of what Munshi said.
func HandoffReason(d Decision) string {
	if d.Intent != domain.IntentHandoff {
		return ""
	}
	if strings.Contains(d.Reason, handoffDisputed) {
		return "dispute"
	}
	return "asked"
}

// fillers are allowed by every rule: forms of address and politeness.
var fillers = words("ji sir bhai please munshi yaar boss dear madam sahab mam bro hello hi")

// Word lists shared by several rules.
const (
	timeWords = `aaj today kal yesterday tomorrow parso week month year this last pichle previous
		current is iss abhi tak till date so far now daily weekly monthly yearly mtd ytd quarter
		jan feb mar apr may jun jul aug sep oct nov dec january february march april june july
		august september october november december din days NUM se from to since`
	askWords = `kya kitna kaun kiska which what whats how much many is are the of batao dikhao show
		tell me check list all sab hai ho ka ki ke ko mein me for hain`
)

var rules = []rule{
	{
		name: "greeting", intent: domain.IntentGreeting, maxLen: 8,
		// A festival's wishes in Tamil, Telugu, Kannada, Malayalam and
		// Punjabi ("pongal nalvazhthukkal", "సంక్రాంతి శుభాకాంక్షలు",
		// "ದೀಪಾವಳಿ ಹಬ್ಬದ ಶುಭಾಶಯಗಳು", "ഓണാശംസകൾ", "ਲੋਹੜੀ ਦੀਆਂ ਲੱਖ ਲੱਖ
		// ਵਧਾਈਆਂ") greet as "happy diwali" does.
		need: groups(`hi hello hey namaste pranam salaam salam assalamualaikum adaab morning evening afternoon night ram radhe jai
			thanks hola greetings haal akal vanakkam mubarak diwali holi eid shubhkamnayein bye ratri kem christmas merry
			nalvazhthukkal नल्वाऴ्त्तुक्कळ शुभाकांक्षलु शुभाशयगळु ओणाशंसकळ् वधाईआं` +
			// Thanks in Bengali, Gujarati and Tamil: "dhonnobad", "આભાર",
			// "நன்றி".
			` dhonnobad आभार नऩ्ऱि`),
		allow: words(`good everyone all team there dost kaise ho how are you kya chal raha rahe sab badhiya
			aap hai shri shree sri krishna sat ram radhe again bro guys friends very nice day a have
			to the sabko and aur ji kaisa happy whole ki chalo cho shubh thats for today ho gaya kaam new
			year take care ok theek hmm update keliye kal baat karte pongal पोङ्कल संक्रांति दीपावळि हब्बद लोहडी दीआं लख्ख` +
			// "acha ok, thanks", "ok andi, thanks", "onek dhonnobad
			// apnake", Tamil's "romba … saar".
			` acha achha andi onek apnake रोम्प चार`),
	},
	{
		// "ok bye, take care": a goodbye, never a yes.
		name: "greeting: ok, bye", intent: domain.IntentGreeting, maxLen: 8,
		need:  groups("bye", "ok"),
		allow: words("take care ji then chalo good night"),
	},
	{
		name: "greeting: how are you", intent: domain.IntentGreeting, maxLen: 7,
		need:  groups("kaise how haal kaisa badhiya whats", "aap you ho hai tum up chaal sab"),
		allow: words("are munshi kya sab badhiya good morning evening namaste hi hello hey ji chal raha rahe"),
	},
	{
		name: "help: how to", intent: domain.IntentHelp, maxLen: 10,
		need: groups("how kaise tarika process procedure",
			"use order orders stock outstanding report sales pending payment approve confirm cancel reject place dalu dalna bheju bhejna mangwaye milega work chalta chalana dekhein dekhe dekhna check update daale daalu daalna"),
		allow: words(`i do does to can we the a an my me mujhe hum se ka ki ke ko mein hai karte karu kare karna
			karen dekhu see get new naya munshi bot this ye yeh is app pata batao customer product an
			it delivery`),
	},
	{
		// "format batao order ka": how to write one.
		name: "help: format", intent: domain.IntentHelp, maxLen: 8,
		need:  groups("format", "order orders message"),
		allow: words(`batao kya hai ka ki ke kaise likhna likhu sahi correct the of for an a what is dikhao`),
	},
	{
		name: "help: menu", intent: domain.IntentHelp, maxLen: 9,
		need: groups("help menu madad options commands guide instructions tutorial features sahayata manual"),
		allow: words(`me i need chahiye kya karo please show dikhao batao the main se what list of all bot how
			to use munshi ki ka ke kaise karna hai mujhe can you send bhejo chaiye do hi hello is there a or
			for user any`),
	},
	{
		name: "help: what can you do", intent: domain.IntentHelp, maxLen: 9,
		need: groups("sakte can", "kya what"),
		allow: words(`kar karo karte you do ho aap tum munshi bot is this ye yeh sab all things else aur kaam
			for me mere liye keliye kya kaun features tasks hai i ask puch`),
	},
	{
		// "tum kya karte ho", "aapka kaam kya hai": what Munshi is for.
		name: "help: what do you do", intent: domain.IntentHelp, maxLen: 8,
		need:  groups("kya what", "karte kaam hota", "tum aap aapka bot munshi you"),
		allow: words("ho hai is this ye yeh se sab kya do does are ka ki"),
	},
	{
		name: "help: how to use", intent: domain.IntentHelp, maxLen: 9,
		need: groups("how kaise", "use work chalana chalaye chalau istemal"),
		allow: words(`to do i does this is it bot munshi karu kare karna karte hai ko isko ise app kya the
			service ye yeh`),
	},
	{
		name: "confirm", intent: domain.IntentConfirm, maxLen: 8,
		need: groups("ok yes haan theek confirm approve done sahi chalega pakka proceed bilkul perfect correct accept accepted agreed fine final finalise finalize sure ahead good submit barabar barobar aaytu sari sheri" +
			// Tamil's "சரி", Malayalam's "ശരി", Kannada's "ಹೌದು", read from
			// their scripts (Telugu's "సరే" reads as Hinglish's "sare",
			// all).
			" chari shari haudu" +
			// Tamil's "seri", Assamese "hoi" ("হয়"), Malayalam's "mathi" (that will do).
			" seri hoi हय mathi" +
			// Telugu's yes, "avunu" ("అవును"); Marathi's and Gujarati's
			// "hau", Kannada's "houdu", Konkani's "hoy", Tulu's "andu".
			" avunu अवुनु hau houdu hoy andu" +
			// Tamil's "aamaa" ("ஆமா"), Konkani's "vhoi" ("व्हय"),
			// Chhattisgarhi's "hav" ("हव").
			" aamaa vhoi व्हय hav"),
		allow: words(`hai karo kar bhejo dedo de order it this the ho gaya hua sab send now abhi bhi to toh is
			all good go ORDERREF hmm with ye yeh isko ise wala same ahead that its looks everything
			ekdum aage badhao dispatch place kardo haan ok yes theek sahi confirm done and daal book moklo che aahe
			submit ide ache chalse` +
			// Send, in Kannada, Tamil and Malayalam as their scripts read:
			// "ಕಳುಹಿಸಿ", "அனுப்புங்க", "അയച്ചോളൂ".
			" kaluhisi anuppunk ayachcholu" +
			// Placing an order, and a do of confirming, in Marathi,
			// Gujarati, Bengali and the southern languages; who is spoken to.
			` dya taka muki podu pettu haaki ittolu koro maadi cheytho kr da ra bhau chetta` +
			// "perfect, send it through", "everything looks right", "ok
			// ji, paa do order", "haan wahi quantity, daal do".
			` through right ji paa do wahi quantity` +
			// "han sahi h bill bana do": make out the bill; "ok bhai laga
			// do order", "ha ok jaldi karo", "हां ठीक है आगे बढ़ो", "હા
			// બરાબર છે, મોકલો", Kannada's "sari, kalisi".
			` bill bana bhai laga lagao jaldi बढो chhe kalisi` +
			// Who is spoken to in Tamil, Telugu, Punjabi and Marwari;
			// "yes please do the needful".
			` anna andi paaji sa please needful`),
	},
	{
		// Telugu's all right, "sare" ("సరే"), and Hindi's "ji": alone,
		// since "ji" follows a name and "sare" is also Hinglish's all.
		name: "confirm: sare, ji", intent: domain.IntentConfirm, maxLen: 2,
		need:  groups("sare सरे ji"),
		allow: words("anna andi sir"),
	},
	{
		// Konkani's "bore" ("बरें", fine) and Gujarati's "haru" (all
		// right): alone, since "bore ho gaya" is boredom.
		name: "confirm: bore, haru", intent: domain.IntentConfirm, maxLen: 2,
		need:  groups("bore बरें haru"),
		allow: words("ji sir"),
	},
	{
		// Marathi's yes, "हो" ("ho bhau"), Kashmiri's "aa" ("aa theek"),
		// and Nagpuri's "ho ja": alone, since in Hindi the words only go
		// with another ("ho gaya", "kya ho", "aa gaya").
		name: "confirm: Marathi ho", intent: domain.IntentConfirm, maxLen: 2, notAsked: true,
		need:  groups("ho aa"),
		allow: words("bhau theek ja"),
	},
	{
		name: "cancel", intent: domain.IntentCancel, maxLen: 8,
		// Marathi's "nako" (don't) and Bengali's "batil" (void).
		need: groups("cancel nahi no reject rehne mat chhodo drop nope discard abort hatao radd delete nako बातिल"),
		allow: words(`karo kar do dedo de it this order the hai chahiye bhejo send abhi ORDERREF now dont mat
			isko ise ye yeh wala need not want sab all ho gaya galat wrong ruko ruk jao wait dena
			karna mujhe koi zarurat jarurat hold ok yes haan party customer ne mana diya bola
			CUSTOMER ka draft` +
			// Told later: "cancel kar do, baad me bataunga", "मत लगाओ,
			// बाद में बताता हूं"; "pura order hata do"; Marathi's "राहू
			// द्या, नको पाठवू", Bengali's "থাক".
			` baad me mein bataunga bolunga बताता हूं bhai lagao poora राहू dya पाठवू थाक`),
	},
	{
		// "kuch nahi, chhod do": left; "कुछ नहीं" alone says nothing.
		name: "cancel: nothing, leave it", intent: domain.IntentCancel, maxLen: 5,
		need:  groups("chhodo", "kuch"),
		allow: words("nahi do dedo"),
	},
	{
		// "band karo ye order": the order stopped ("dukaan band karo"
		// closes a shop, "order band kar diya" is news).
		name: "cancel: order stopped", intent: domain.IntentCancel, maxLen: 5,
		need:  groups("band", "order"),
		allow: words("karo kar do ye yeh is isko ise wala"),
	},
	{
		name: "cancel: na", intent: domain.IntentCancel, maxLen: 2,
		need:  groups("na"),
		allow: words("na"),
	},
	{
		name: "stock: level", intent: domain.IntentStock, maxLen: 14,
		need: groups("stock available inventory godown bacha khatam"),
		allow: words(askWords + ` PRODUCT UNIT SIZE NUM do we have left in out low abhi current status level
			position se products product item items maal total ready wip pada hua any there aur
			and kab aayega ayega our us gaya which hamare paas pass has been run running finish
			finished over enough sufficient bache full saare sabhi warehouse physical closing
			opening today aaj with hum humare apne kitne only sirf remaining karo kar`),
	},
	{
		name: "stock: can we supply", intent: domain.IntentStock, maxLen: 16,
		need: groups("sakte commit possible supply milega jayega hoga payega fulfil fulfill manage arrange", "PRODUCT NUM"),
		allow: words(`can we you kya PRODUCT UNIT SIZE NUM of de hai ho is it to deliver give kar the ka ki ke
			itna itne aaj kal today tomorrow by abhi turant available stock se mein hum aap
			CUSTOMER ko for keliye week this immediately within days din under how many maximum
			max zyada kitna tak order an a together paas have enough do ready are` +
			// "Mehta ji ko 80 carton TC chahiye parso tak, ho payega?"
			` chahiye parso ji`),
	},
	{
		// Is there, asked of goods in Tamil, Telugu and Marathi: "harpic
		// 60 carton irukka?", "phenyl 100 carton unda godown lo?", "मॉप
		// 5 डझन मिळतील का?".
		name: "stock: is there", intent: domain.IntentStock, maxLen: 8,
		need:  groups("PRODUCT", "irukka unda मिळतील"),
		allow: words("NUM UNIT SIZE godown lo ka kya"),
	},
	{
		name: "stock: can we", intent: domain.IntentStock, maxLen: 16,
		need: groups("can", "we", "PRODUCT"),
		allow: words(`NUM UNIT SIZE of the to deliver give supply commit send ship dispatch fulfil fulfill
			arrange manage by today tomorrow this week CUSTOMER for in within days enough have
			stock an a order`),
	},
	{
		name: "outstanding", intent: domain.IntentOutstanding, maxLen: 14, unless: paymentRecord,
		need: groups("outstanding udhaar dues due owes owe owed receivable receivables baaki hisaab khata khate ledger paid unpaid defaulters debtors overdue balance"),
		allow: words(askWords + ` CUSTOMER who us money total paise payment pe par se does from customers
			customer party parties wala abhi tak current amount balance lena top highest sabse zyada
			i you as do reh gaya ji shops most bro rn
			more than over NUM rupees days din overdue pending whose has have our market hamara
			humara kitne log kis kisne nahi diya paid pay not yet collect collection recover hasnt havent last in
			recovery bhejo send and aur upar above limit credit cross till aaj statement which yet
			invoices bills chal raha` +
			// A shop's own: "due kitna hai mera", "pichla hisaab kitna bacha
			// hai", "mere khate me kitna likha hai", "humara hisaab batao
			// kitna dena hai".
			` mera pichle bacha likha aapke yahan dena` +
			// Everyone's dues in Punjabi, Marwari, Telugu and Kannada:
			// "saare customers da baaki", "saara customers ro baaki",
			// "andari baaki", "ella customers baaki … alli kalsi"; Marwari's
			// "sa" said to whom one asks; Punjabi's own, "sada kinna baaki".
			` saare saara saari andari ella da ro ch alli kalsi sa sada` +
			// "send everyone's dues in excel"; who owes the most in Tamil
			// ("yaar kitta adhigama baaki irukku?") and Gujarati ("સૌથી
			// વધારે બાકી કોના પર છે?").
			` everyones everyone yaar kitta adhigama irukku सौथी वधारे कोना chhe`),
	},
	{
		// What all the customers owe together, said as the money to get
		// from the market: "how much total we have to get from the
		// market, all parties together?", Kannada's "market alli ottu
		// eshtu duddu barbeku ellarinda", Tamil's "market la mothama
		// evvalavu panam varanum ellaar kittayum".
		name: "outstanding: money to get from the market", intent: domain.IntentOutstanding, maxLen: 14,
		need: groups("market", "get lena barbeku varanum"),
		allow: words(askWords + ` total we have to from the men all parties party together customers se paise money
			alli ottu ellarinda la mothama panam ellaar kittayum`),
	},
	{
		name: "outstanding: payment due", intent: domain.IntentOutstanding, maxLen: 12, unless: paymentRecord,
		need: groups("payment paise rupees balance", "pending baaki due lena aana aaya remaining outstanding collect"+
			// Marathi's overdue, Telugu's not paid.
			" thakle cheyaledu"),
		allow: words(askWords + ` CUSTOMER who us money total pe par se from customers customer party parties
			abhi tak amount nahi not yet kab kitne kis kisne market` +
			// Whose and are in Marathi, who and yet in Telugu.
			" kunache aahet evaru inka"),
	},
	{
		// "uska last payment?" after a customer's dues, "Mehta ka last
		// payment kab aaya": when a customer last paid is of their dues.
		name: "outstanding: last payment", intent: domain.IntentOutstanding, maxLen: 10, unless: paymentRecord,
		need:  groups("CUSTOMER uska unka iska", "last pichla latest", "payment"),
		allow: words(askWords + ` kab kitna tha hua aaya kiya when`),
	},
	{
		name: "pending orders", intent: domain.IntentPendingOrders, maxLen: 14,
		need: groups("pending undelivered open awaiting", "order orders delivery deliveries dispatch"),
		allow: words(askWords + ` CUSTOMER aaj kal today yesterday week nahi not yet hua gaya delivered deliver
			still bhi status there any koi our liye keliye bhejo send total number count since
			from days din NUM purane old oldest tak`),
	},
	{
		// "Is there anything pending for Agarwal Medical?", "undelivered":
		// what is pending, with no word of orders.
		name: "pending orders: anything", intent: domain.IntentPendingOrders, maxLen: 10,
		need:  groups("pending undelivered"),
		allow: words(`kya is are the batao dikhao show list hai ho ka ki ke for hain CUSTOMER there anything any kuch koi abhi tak`),
	},
	{
		// One customer's order not delivered yet is that order's status.
		name: "pending orders: not delivered", intent: domain.IntentPendingOrders, maxLen: 14,
		need: groups("delivered deliver delivery dispatch dispatched", "nahi not pending yet undelivered baaki"),
		allow: words(askWords + ` order orders maal aaj kal today yesterday week hua gaya still bhi
			status there any koi our liye keliye for total number since from days din NUM tak kis kiske CUSTOMER
			abhi hue ketla karvana che customer customers haan`),
	},
	{
		// "approval me kitne order atke hain": drafts waiting for an
		// owner's approval are pending orders.
		name: "pending orders: approval", intent: domain.IntentPendingOrders, maxLen: 12,
		need: groups("approval approve awaiting atke stuck", "order orders"),
		allow: words(askWords + ` karne wale wala me mein kitne any in my mere liye all list show hai hain
			abhi aaj`),
	},
	{
		name: "report", intent: domain.IntentReport, maxLen: 16,
		need: groups("sales report chart graph excel export digest summary revenue turnover performance trend analysis analytics dashboard top best breakdown bika bikta bike bikri bik bikne"),
		allow: words(timeWords + ` ki ka ke kitni kitna hua hui hue show send bhejo dikhao batao me the of for by
			per wise customer customers product products items item sku skus CUSTOMER PRODUCT total
			overall kaisi kaise rahi raha hai how was were is what whats in mein compare vs versus
			give bana banao chahiye selling sold worst highest lowest area region salesman and aur
			with sheet file data liye keliye a an my our us bar line pie mail email on whatsapp get
			want need i kar karo do kitne party figure figures number numbers comparison growth same
			morning subah roz everyday every day time at baje bhi wala wali report chart graph excel
			all orders order kaun sabse zyada UNIT kam se monthly purchase`),
	},
	{
		// "aaj kitna payment aaya", "is hafte ki collection": what came
		// in over a period. Dues ("kitna baaki hai") and one customer's
		// "payment aaya kya?" are not it.
		name: "payments received", intent: domain.IntentPaymentsReceived, maxLen: 16, unless: paymentRecord,
		need: groups("payment payments paisa paise amount collection vasooli receipts bhugtan cash upi cheque cheques neft rtgs imps gpay phonepe paytm money amt rakam collect collected transfer",
			"aaj kal parson today yesterday week month year this last pichle quarter fortnight tareekh january february march april june july august september october november december jan feb mar apr jun jul aug sep oct nov dec",
			// how much, or who: "Rajesh se paisa aaya kya aaj" asks
			// whether one customer paid, which is their dues.
			"kitna kis kisne kisi kaun who which total list report chart excel much collection vasooli receipts dikhao batao"),
		allow: words(askWords + ` aaya mila hua kiya received collected collect jama credited kis kisne kisi kaun who which
			se from cash cheque upi neft gpay phonepe paytm pe online mode wise total list report chart excel CUSTOMER
			the of in by receive karna hui is iss hafte tak so far till now abhi bhejo dikhao batao to date
			me ab what was how much did we for please share via customers haath aur unki kya hai NUM credit
			parties party jin came thru through bank transfer get and din bhar wala par ne diya qr
			alag separately breakdown broken down split can i`),
	},
	{
		// "Mehta ji ka 40000 kab aayega": a customer's money awaited is
		// their dues, not an order (a bare number names no order here).
		name: "outstanding: amount awaited", intent: domain.IntentOutstanding, maxLen: 10, asked: true,
		need:  groups("CUSTOMER", "NUM", "aayega milega"),
		allow: words(`ka ki ke se kab tak abhi hai kya rupees paise payment`),
	},
	{
		// "Sharma ji ke 3 bill khule hai kya": bills not yet paid are dues.
		name: "outstanding: open bills", intent: domain.IntentOutstanding, maxLen: 10, unless: paymentRecord,
		need:  groups("bill bills invoice invoices", "khule khula open unpaid"),
		allow: words(askWords + ` CUSTOMER NUM kitne kiske kis abhi tak bhi customer customers party`),
	},
	{
		// "kaun kitna dena hai": who owes how much; "aaranu ettavum
		// kooduthal tharanullathu" (Malayalam): who owes the most.
		name: "outstanding: who owes", intent: domain.IntentOutstanding, maxLen: 10,
		need: groups("kaun kisko kiska kis", "kitna sabse zyada", "dena lena"),
		allow: words(`hai hain humein ko ka ki ke party batao dikhao abhi total sab sabka zyada paise` +
			// Kannada's "to us": "namge yaaru jaasti duddu kodbeku?"
			` namge`),
	},
	{
		// "kal kitne order aaye": how many orders came in.
		name: "report: orders counted", intent: domain.IntentReport, maxLen: 10,
		need:  groups("kitna", "order orders", "aaya book hua mila"),
		allow: words(timeWords + ` ki ka ke hai hain total is iss hafte ne`),
	},
	{
		name: "delivery", intent: domain.IntentDelivery, maxLen: 24, notAsked: true, signal: deliveryRecord,
		need: groups("ORDERREF NUM", "delivered deliver delivery pahuncha pahunch handover handed mila received"),
		allow: words(doneList + ` ORDERREF NUM PRODUCT UNIT SIZE kar de order maal sab saara poora pura full fully
			partial partially short kam less missing baaki return returned wapas damaged aur and but par lekin
			except bas only sirf customer party CUSTOMER ko ka ki ke to at by ne se received mila no number aaj today
			kal yesterday abhi just now shaam subah mein me the a has been was is hai`),
	},
	{
		name: "payment", intent: domain.IntentPayment, maxLen: 24, notAsked: true, codes: true, signal: paymentRecord,
		need: groups("NUM", "CUSTOMER received mila jama collected credited aaya diya paid"),
		allow: words(receivedList + " " + payerList + " " + modeList + ` rupees NUM CUSTOMER ORDERREF ne se from by via
			through in mein me ka ki ke of kiya hai hua ho gaya de bank account ac payment amount paise
			ref reference no number utr txn transaction id dated date aaj today kal yesterday abhi just now
			full part partial advance against for towards bill invoice the a has been was is wala settled cleared
			jan feb mar apr may jun jul aug sep oct nov dec`),
	},
	{
		name: "stock received", intent: domain.IntentStockReceived, maxLen: 24, notAsked: true, signal: receivedRecord,
		need: groups("NUM", goodsList, arrivalList),
		allow: words(goodsList + " " + arrivalList + ` UNIT SIZE NUM production factory plant supplier company vendor
			manufacturing mfg wip godown warehouse truck gaadi se from in mein me ko ka ki ke aur and ho gaya hua kiya
			hai hain naya new fresh aaj today kal yesterday abhi just now have been has is are was were the a of
			total sab sham subah raat`),
	},
	{
		name: "order status: reference", intent: domain.IntentOrderStatus, maxLen: 12,
		need: groups("ORDERREF", "status kahan where track tracking update kab when eppudu eppo"),
		// "ORD-1907 ekkada undi? eppudu vastundi": where is it, when
		// does it come, in Telugu.
		allow: words(askWords + ` ORDERREF abhi tak my mera kab when gaya hua pahuncha aayega milega pahunchega undi vastundi`),
	},
	{
		name: "order status: reference asked", intent: domain.IntentOrderStatus, maxLen: 12, asked: true,
		need: groups("ORDERREF", "delivered deliver delivery pahuncha pahunch dispatch dispatched gaya aaya hua confirm confirmed"),
		// "ORD-9214 confirm aayidicha?" (Tamil), "… aaytha?" (Kannada):
		// has it been.
		allow: words(askWords + ` ORDERREF abhi tak kab when ho gaya hua hui ya or nahi not yet pahunchega jayega hoga aayidicha aaytha`),
	},
	{
		// "मेरा माल कब तक आएगा भैया": a shop's goods are its order.
		name: "order status: mine", intent: domain.IntentOrderStatus, maxLen: 12,
		// Telugu's "naa" (my): "naa order eppudu vastundi?".
		need: groups("mera my apne hamare humare na", "order orders maal"),
		allow: words(askWords + timeWords + ` status kahan where abhi tak kab when gaya hua hui deliver delivered
			dispatch dispatched pahuncha aaj wale latest recent aayega ayega milega pahunchega bhai eppudu vastundi`),
	},
	{
		// "naa order ekkada undi?", "amar order ta kothay?": where an
		// order is, asked in any language, is the writer's own.
		name: "order status: where", intent: domain.IntentOrderStatus, maxLen: 8,
		need: groups("order orders", "kahan where"),
		allow: words(askWords + ` mera my apne hamare na amar en ta ache undi irukku ippo ekhon abhi tak aaj kal today
			wale latest recent`),
	},
	{
		name: "order status: customer", intent: domain.IntentOrderStatus, maxLen: 14, asked: true,
		need: groups("CUSTOMER", "order orders maal delivery gaadi consignment goods",
			"gaya pahuncha pahunch pahunchega deliver delivered dispatch dispatched hua status kahan kab jayega aayega milega nikla raste received happening update"),
		allow: words(askWords + ` abhi tak kab when ho hua hui ya nahi not yet jayega hoga wala wale aaj kal today
			yesterday customer wait puch rahe unka unki latest recent last most with any on did their from us eppo aagum`),
	},
	{
		// "Rajesh ke orders dikhao": one customer's orders, each with its
		// state. Anything that says pending stays a pending list.
		name: "order status: a customer's orders", intent: domain.IntentOrderStatus, maxLen: 12,
		need: groups("CUSTOMER", "order orders", "dikhao batao show list saare sab all"),
		allow: words(`ka ki ke ko the of for me mein aaj kal today yesterday week month is this last pichle wale
			recent latest status`),
	},
	{
		name: "order status", intent: domain.IntentOrderStatus, maxLen: 12,
		need:  groups("status", "order orders delivery dispatch ORDERREF"),
		allow: words(askWords + ` CUSTOMER my mera apne latest last recent aaj kal today yesterday wale`),
	},
	{
		// "owner se baat karao", "talk to someone": a person of the
		// office, not Munshi (internal/handoff).
		name: handoffAsked, intent: domain.IntentHandoff, maxLen: 12,
		need: groups("baat talk speak connect phone call बात",
			"owner malik seth office insaan human person someone manager koi kisi agent मालिक किसी कोई ऑफिस"),
		allow: words(`se ko karao karwao karwa karni karna kare karo do hai mujhe me i want to can a the with in from
			abhi back से कराओ करवाओ करनी है`),
	},
	{
		name: handoffAsked + ": call me", intent: domain.IntentHandoff, maxLen: 8,
		need:  groups("call phone callback कॉल", "me mujhe back बैक"),
		allow: words(`please can a person koi office se kare karo ek baar kar do chahiye jaldi abhi urgent`),
	},
	{
		// "price galat hai", "ye order maine nahi diya": what Munshi said
		// is disputed, which only the office can settle.
		name: handoffDisputed, intent: domain.IntentHandoff, maxLen: 10,
		need:  groups("galat wrong गलत", "price rate total amount bill dues gst hisab hisaab calculation quantity maal रेट बिल हिसाब"),
		allow: words(`hai this is the ye lagaya dikhaya bana lag raha mere ka customer likhi likha bheja aaya है`),
	},
	{
		// "maal short hai", "short supply": goods that came short, and
		// nothing beside it to record them against.
		name: handoffDisputed + ": goods short", intent: domain.IntentHandoff, maxLen: 6, notAsked: true,
		need:  groups("short", "maal supply goods"),
		allow: words(`hai aaya hua tha bhai sir ji`),
	},
	{
		// Gujarati's "aa order 3345 ame aapyo nathi", Bengali's "8812
		// order ta ami dii ni", Kannada's "naanu ee order kottilla",
		// Marathi's "ऑर्डर 6120 मी दिलीच नव्हती" and Telugu's "ఈ ఆర్డర్ నేను
		// ఇవ్వలేదు" say the same.
		name: handoffDisputed + ": not my order", intent: domain.IntentHandoff, maxLen: 10,
		need: groups("maine i mera my ame ami naanu मी नेनु", "nahi never not nathi ni kottilla नव्हती इव्वलेदु",
			"order ordered"),
		allow: words(`ye this is koi diya kiya placed hai kabhi hi what NUM aa aapyo ta dii ee दिलीच`),
	},
	{
		// "complaint karni hai": a complaint is the office's to hear.
		name: handoffDisputed + ": complaint", intent: domain.IntentHandoff, maxLen: 6,
		need:  groups("complaint shikayat"),
		allow: words(`karni karna hai mujhe ek i have a want to register darj`),
	},
	{
		// "lizol 4 carton aur handwash 2 carton": goods and how many,
		// nothing else, is what a salesperson sends to order them;
		// goods that came say so ("aaya"), a question asks.
		name: "order: the goods alone", intent: domain.IntentOrder, maxLen: 16, notAsked: true,
		need:  groups("PRODUCT", "NUM", "UNIT"),
		allow: words(`UNIT SIZE PRODUCT NUM aur and`),
	},
	{
		// "harpic 5 carton, 12+1 wali scheme lagana": the goods with the
		// scheme or offer to put on them. A scheme said missing denies
		// it, and a discount asked for is not Munshi's.
		name: "order: the goods with their scheme", intent: domain.IntentOrder, maxLen: 20, notAsked: true,
		need:  groups("PRODUCT", "NUM", "UNIT", "scheme offer"),
		allow: words(`UNIT SIZE PRODUCT NUM aur and scheme offer wala lagana lagao ke saath diwali`),
	},
	{
		// "gear oil bhejna hai", "syringe beku": goods wanted, whose and how many to be asked.
		name: "order: the goods wanted", intent: domain.IntentOrder, maxLen: 8, notAsked: true,
		need:  groups("PRODUCT", "bhejo chahiye"),
		allow: words(`PRODUCT SIZE UNIT hai aur and bhi please ji sir bhai abhi jaldi`),
	},
	{
		name: "order", intent: domain.IntentOrder, maxLen: 40, notAsked: true,
		need: groups("PRODUCT", "NUM", "CUSTOMER bhejo dedo send chahiye order lagao likho deliver dispatch supply"),
		allow: words(`UNIT SIZE PRODUCT NUM aur and keliye for ko to cash cod credit upi cheque payment pay mode
			paytm gpay phonepe neft rtgs bank transfer online udhaar se ka ki ke aaj kal urgent jaldi
			abhi delivery x each plus also bhi with wala new naya place at on days din mein me bhai
			ek saath kar karo hai dena de par pe the of a an turant immediately today tomorrow
			evening morning shaam subah tak before by party dukaan shop liye advance rate same
			qty quantity also` +
			// Gujarati's "to", "and", "in" and "by": "Khodiyar ne 200 nbc
			// 6202 ane 2 dabba 6203 mokli do, udhar ma", "NEFT thi".
			` ne ane ma thi do` +
			// Bengali's count word: "khelaghar ke 10 ta monster truck".
			` ta`),
	},
}
