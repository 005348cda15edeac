package intent

import (
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestHandoffInOtherWords: a person of the office asked for, or a figure
// disputed, in words the handoff rules do not list, hands over; a call to
// family or a customer, a number to dial, or a reason to stop an order
// does not.
func TestHandoffInOtherWords(t *testing.T) {
	r := demoRouter(t)
	wantHandoffs(t, r, map[string]string{
		"owner se baat karwa do":                       "asked",
		"please connect me with the manager":           "asked",
		"koi mujhe call kare office se":                "asked",
		"insaan chahiye":                               "asked",
		"my dues are wrong":                            "dispute",
		"total sahi nahi hai":                          "dispute",
		"GST ka hisaab galat lag raha hai":             "dispute",
		"stock ka figure theek nahi dikha":             "dispute",
		"मेरा बैलेंस गलत है":                           "dispute",
		"accounts team se kisi ko bolo call kare":      "asked",
		"can I speak to your supervisor":               "asked",
		"owner sahab se milna hai":                     "asked",
		"mujhe callback chahiye jaldi":                 "asked",
		"mera hisaab aapke hisaab se match nahi karta": "dispute",
		"I was charged twice for one bill":             "dispute",
		"maal short hai":                               "dispute",
		"maal short aaya hai":                          "dispute",
		"Can someone from your office call me back? Need to discuss Mehta Traders credit limit": "asked",
		"I need a human, this is not helping":                                                   "asked",
		"sir plz mere ko ek baar ring kar do":                                                   "asked",
		"can someone from your team visit our store":                                            "asked",
		"the rates you charged are higher than quoted":                                          "dispute",
		"Maal j nathi aavyo ne bill aavi gayu, aa shu che?":                                     "dispute",
		"jhadu order korechilam, mop pathiyechen. bhul maal":                                    "dispute",
		"ye ORD-1203 maine kabhi diya hi nahi":                                                  "dispute",
		"bill me 6 box handwash hai par maal aaya hi nahi":                                      "dispute",
		"5% discount promised tha Sharma ji ko, bill me laga hi nahi":                           "dispute",
		"delivery 4 din late hai, complaint likho meri":                                         "dispute",
		"सर्फ का रेट गलत है, 110 नहीं 105 बोला था":                                              "dispute",
		// The owner called sir; a time of day or a count of tries is no
		// number to dial.
		"sir ko bolo mujhe call kar le aaj":                        "asked",
		"kal office aa sakta hu kya manager se milne? 11 baje tak": "asked",
		"2 baar puch liya, office me kisi se connect karo":         "asked",
		// Paid before, still shown owed.
		"maine kal 25000 UPI kiya tha, abhi tak account me nahi dikh raha": "dispute",
		"Cheque cleared on the 5th but my ledger still shows it unpaid":    "dispute",
		"पेमेंट दे दिया था फिर भी रिमाइंडर आ रहा है":                       "dispute",
		// A meeting with the office's people, someone from the office,
		// dues asked how they can be after paying, an order we never
		// gave.
		"can you set up a meeting with the owner on monday":   "asked",
		"get me someone from accounts please":                 "asked",
		"mera balance 25000 kyu? pichle hafte clear kiya tha": "dispute",
		"ये ऑर्डर हमने कभी दिया ही नहीं":                      "dispute",
		// The owner asked for in Gurmukhi, Gujarati and Bengali; a person
		// asked after, a call back, an escalation, someone sent.
		"ਮਾਲਕ ਨਾਲ ਗੱਲ ਕਰਨੀ ਹੈ":        "asked",
		"મારે માલિક સાથે વાત કરવી છે": "asked",
		"মালিকের সাথে কথা বলব":        "asked",
		"koi insaan hai kya?":                                "asked",
		"pls call me back, urgent hai":                       "asked",
		"this needs an escalation":                           "asked",
		"office se kisi ko bhejo, bot samajh nahi raha":      "asked",
		"kal aapke office aa sakta hu kya?":                  "asked",
		"koi representative bhejo aapka":                     "asked",
		"hisaab ke liye kisi se milwa do":                    "asked",
		"kis se baat karu limit ke liye?":                    "asked",
		"aapke salesman ne badtameezi ki":                    "dispute",
		"late fee kyu lagaya mere bill pe":                   "dispute",
		"why was a bounce charge added":                      "dispute",
		"aapne 500 extra kaat liya":                          "dispute",
		"want to discuss the rates with your management":     "asked",
		"who can we call about the short delivery?":          "asked",
		"please put me through to the manager":               "asked",
		"the dues you are showing are not what I owe":        "dispute",
		"rate list ka total mere hisaab se kam hona chahiye": "dispute",
		"order cancel kiya tha phir bhi delivery aa gayi":    "dispute",
		// Not mine, said otherwise, paid and not set against the dues.
		"ye invoice mera nahi hai":                              "dispute",
		"maine 5 carton bola tha, order me 50 kisne daala?":     "dispute",
		"rate 90 ka bola tha, bill me 99 lagaya":                "dispute",
		"mera UPI payment abhi tak adjust nahi hua":             "dispute",
		"ledger shows 12000 due but I paid by cheque last week": "dispute",
		// The office's help line, someone above, a visit; damaged goods
		// to replace, a matter nobody settles, money taken twice.
		"aapka customer care number bhejo":              "asked",
		"helpline number do please":                     "asked",
		"transfer me to the owner":                      "asked",
		"upar wale se baat karni hai":                   "asked",
		"kal shop pe aake baat karo":                    "asked",
		"saab ko bolo mujhe call kare":                  "asked",
		"3 peti surf damaged aayi, replacement chahiye": "dispute",
		"hafte se koi solve nahi kar raha mera hisaab":  "dispute",
		"need someone to sort out my invoice":           "dispute",
		"ek payment do baar kat gaya":                   "dispute",
		"bill ka paisa double deduct hua":               "dispute",
		// A paper explained, someone asked to call, who is in charge;
		// a limit asked why or to be raised, a charge reckoned how,
		// spoilt goods to take back, a charge put on twice, rudeness.
		"invoice samajh nahi aaya, koi samjhao": "asked",
		"koi phone karo mujhe":                  "asked",
		"who is in charge of billing":           "asked",
		"kisi ko bolo call kare, urgent":        "asked",
		"meri limit kyu kam kar di":             "dispute",
		"credit limit badha do please":          "dispute",
		"GST kis hisaab se lagaya":              "dispute",
		"2 peti leak wali aayi, wapas karo":     "dispute",
		"invoice me freight do baar lagaya":     "dispute",
		"aapka delivery boy bahut rude tha":     "dispute",
	})
	for _, text := range []string{"papa se baat karni hai", "Rajesh se baat karo", "9876543210 pe call karo",
		"galat rasta le liya", "reject ORD-1042 rate galat hai", "mat bhejo, rate galat hai", "mummy ko call karo",
		"GC ka stock kitna hai", "doctor sahab se milna hai", "cab wale ko phone lagao",
		"bank manager se milna hai loan ke liye", "phone ka bill abhi tak nahi aaya", "wifi wale ki complaint karo, net nahi chal raha",
		"mujhe kal boss ke saath meeting me jaana hai", "team ko meeting ka reminder bhejo",
		"Mehta ne 5000 diye the, baaki abhi tak nahi aaya", "papa ne paise bheje the phir bhi account me nahi dikh raha",
		"Rajesh ka payment abhi tak nahi aaya", "sir 9876543210 pe call karo mujhe", "sir, Rajesh ko call karo",
		"sir meeting kitne baje hai", "office me meeting room book karo", "someone from Mehta Traders came to the shop",
		"5000 diye the, baaki kaise bharu", "humne 20 carton GC bheje the",
		"Sharma ji ne 10 carton bola tha, bhej do aaj", "ye phone mera nahi hai", "koi insaan nahi mila raste me",
		"call back Rajesh Kirana about the order", "godown se kisi ko bhejo maal lene", "payment entry kar do Mehta ka 5000 cash",
		"Rajesh ne 5 carton bola tha, 5 carton bhej diye", "kis customer ka payment aaya", "office aa gaya hu",
		"Rajesh ka maal milwa do godown se", "delivery charge kitna hai", "gupta bros ka maal utaar diya, 2 labour extra lagaye the",
		"who will call Rajesh for the payment reminder", "GC ka stock showing 40 carton", "order cancel kiya tha, phir se bhejo",
		"airtel customer care ka number do", "upar wali almari me rakh do", "replacement wala maal aa gaya",
		"light 2 baar kat gayi", "need someone to carry the cartons", "5000 transfer kar diye Rajesh ne",
		"paise transfer me time lagega kya", "maal upar tak pahuncha diya",
		"koi baat nahi, kal bhej dena", "GC ka stock short hai", "maal short hai godown me", "maal short hai kya",
		"explain the commands for stock", "is bot pe dues kaise dekhte hain samjhao",
		"HDFC credit card ki limit badhwani hai", "how much is Ashok's outstanding vs limit",
		"Sharma ji ne 5 carton GC wapas bheja, leak wala tha", "godown incharge ne 50 carton surf receive kiye",
		"refund kab milega", "Ola driver bahut rude tha, 1 star dunga", "aaj traffic bahut hai ring road pe", "site visit kab hai", "maal bhul gaya godown me, kal le jaunga"} {
		if d := r.Route(t.Context(), text); d.Intent == domain.IntentHandoff {
			t.Errorf("Route(%q) = handoff (%s)", text, d.Reason)
		}
	}
}

// wantHandoffs checks that each message hands over for its reason.
func wantHandoffs(t *testing.T, r *Router, reasons map[string]string) {
	t.Helper()
	for text, reason := range reasons {
		d := r.Route(t.Context(), text)
		if d.Intent != domain.IntentHandoff || HandoffReason(d) != reason {
			t.Errorf("Route(%q) = %s %q (%s), want handoff %q", text, d.Intent, HandoffReason(d), d.Reason, reason)
		}
	}
}

// TestShownButDisputed: a figure the books or a paper show, set against
// what the writer says is so, is a dispute for the office; a figure shown
// with nothing against it is not, nor goods that came short of a
// supplier's bill.
func TestShownButDisputed(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentHandoff, "invoice me GC 10 carton likha hai, maine 8 carton hi liye the",
		"Harpic rate is showing 110 but the list says 95")
	notRoutedAs(t, r, domain.IntentHandoff, "GC ka stock kitna dikha raha hai", "invoice me 40 carton likha hai",
		"supplier ke bill me 40 carton likha hai, lekin 38 hi aaye")
}
