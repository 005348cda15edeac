package intent

import (
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestTroubleHandsOver: a problem with the goods, a bill or the service
// that no narrower rule reads goes to the office rather than the LLM:
// goods missing, short of the bill, spilt, spoilt on opening or not
// working, money not shown, a shop losing sales. A delivery
// or goods received that reports a shortage or a breakage, and a problem
// with a shopping site or the family, do not.
func TestTroubleHandsOver(t *testing.T) {
	r := demoRouter(t)
	wantHandoffs(t, r, map[string]string{
		"delivery boy maal gate pe chhod ke chala gaya, 1 carton gayab hai ab":                 "dispute",
		"Got only 1 carton of soap, invoice says 3":                                            "dispute",
		"Billed for 5 bags of detergent, none were delivered":                                  "dispute",
		"10 कार्टन का बिल बना है, आए सिर्फ 7":                                                  "dispute",
		"kal ke maal me 6 bottle phooti nikli bhaiya":                                          "dispute",
		"handwash ke pump kaam nahi kar rahe, pura 1 carton ka yehi haal hai":                  "dispute",
		"We paid your delivery man 4200 cash, no receipt given and it is not in the statement": "dispute",
		"fourth time this month the delivery came late. we are losing sales because of this":   "dispute",
	})
	notRoutedAs(t, r, domain.IntentHandoff,
		"1783 pahuncha - sab maal sahi, koi bottle tooti nahi",
		"rajesh kirana ka maal de ke aa raha hoon, 1 bag surf kam tha",
		"बिल १५१३ ग्राहक को सौंपा, दो दर्जन पोछा कम",
		"phenyl ki 55 peti aayi, do phooti hui",
		"7028 done at City Hospital, 4 cartons air freshener returned as wrong size",
		"zepto wala galat saman de gaya, sabun ki jagah shampoo",
		"papa ka phone kaam nahi kar raha",
	)
}

// TestComplaintIsNoOrderNorCancel: spoilt goods named with a customer
// and asked to be replaced are not an order, an order cancelled before
// and sent all the same is not a cancellation, and an order written "ORD
// 1063" said not to be the writer's is disputed as "ORD-1063" is; each
// hands over. A cancellation with its reason and an order still read as
// before.
func TestComplaintIsNoOrderNorCancel(t *testing.T) {
	r := demoRouter(t)
	wantHandoffs(t, r, map[string]string{
		"Hotel Shivam here, the dish bars came soggy and are unusable. Need a replacement.": "dispute",
		"ऑर्डर कैंसल करवाया था फिर भी माल भेज दिया":                                         "dispute",
		"order cancel karwaya tha fir bhi bhej diya aur bill bhi laga diya":                 "dispute",
		"ORD 1063 humara nahi hai": "dispute",
	})
	routedAs(t, r, domain.IntentCancel, "cancel kar do, maine galat bheja tha")
	routedAs(t, r, domain.IntentOrder, "Hotel Shivam ko 5 carton dish bar bhejo")
}

// TestMoreDisputesAndAsks: the writer's own dues asked how they came to
// be, books that do not match, an item billed twice, a credit note not
// received or not set off; the head's number asked in a few words, a
// call back wanted, a person put on the line. Their look-alikes do not
// hand over.
func TestMoreDisputesAndAsks(t *testing.T) {
	r := demoRouter(t)
	wantHandoffs(t, r, map[string]string{
		"mera balance 120000 kaise ho gaya?? itna to banta hi nahi":          "dispute",
		"hamara khata aapke system se match nahi kar raha, 8000 ka fark hai": "dispute",
		"bill me same item do baar chadha hua hai":                           "dispute",
		"last month maal return kiya tha, credit note abhi tak nahi mila":    "dispute",
		"previous credit note has not been adjusted in this month's bill":    "dispute",
		"malik ka no.":                          "asked",
		"can i get a callback today before 5pm": "asked",
		"ये बॉट से काम नहीं चलेगा, किसी आदमी को लाइन पे लाओ": "asked",
		"yaar kisi real aadmi ko lagao 🙄": "asked",
	})
	notRoutedAs(t, r, domain.IntentHandoff,
		"Gupta ka outstanding 40000 kaise hua",
		"mujhe customer ko callback karna hai",
		"koi aadmi lagao maal utarne ke liye",
		"credit note bhejo Sharma ji ka",
		"mera no. save kar lo",
	)
}

// TestLongMessagesAskAndDispute: a voice note's transcript that asks for
// the owner or a person, or says a scheme is missing from the bill, hands
// over however long it runs; a long delivery report that tells of the
// places it went and goods short does not.
func TestLongMessagesAskAndDispute(t *testing.T) {
	r := demoRouter(t)
	wantHandoffs(t, r, map[string]string{
		"arey yaar kitni baar bolna padega aapke ladke ko time pe aana hai teen din se bol raha hoon aaj aayega kal aayega dukaan pe customer wait karte hain aur koi jawab nahi deta malik se baat karao mujhe seedha":      "asked",
		"bhai dekh main seedha bolta hoon ye bot wot se mera kaam nahi hone wala mujhe ek insaan chahiye jo mera pura hisaab baith ke samjhaye kyunki tumhare hisaab se main 78 hazaar deta hoon aur mere hisaab se sirf 40": "asked",
		"namaskar ji Ashok Provision se baat kar raha hoon ye bolna tha ki jo scheme aapne bola tha das carton pe ek free woh bill mein toh laga hi nahi aur free wala maal bhi nahi aaya toh zara dekh lo ya kisi ko bhejo": "dispute",
	})
	notRoutedAs(t, r, domain.IntentHandoff,
		"sir aaj subah 7 baje nikle the, pehle Gupta bros gaye wahan 45 min unloading ke liye wait karna pada, fir Agarwal medical aur Khan kirana, teeno jagah maal de diya, GC sab jagah thoda kam pada kyunki load hi kam hua tha")
}

// TestShopComplainingIsNoDelivery: the shop that got the goods writing of
// the business's delivery man, or asking in its own voice for goods to be
// replaced, records no delivery; a salesperson's delivery that notes a
// replacement still does.
func TestShopComplainingIsNoDelivery(t *testing.T) {
	r := demoRouter(t)
	notRoutedAs(t, r, domain.IntentDelivery,
		"Salaam bhai, Hotel Shivam se. Aapke delivery wale ne 2 carton kam utaare aur sign poore pe le liya",
		"Hello, City Hospital stores. The mops supplied last week are shedding badly, we need them replaced.")
	wantHandoffs(t, r, map[string]string{
		"Salaam bhai, Hotel Shivam se. Aapke delivery wale ne 2 carton kam utaare aur sign poore pe le liya": "dispute",
	})
	routedAs(t, r, domain.IntentDelivery, "8275 ka maal customer ke hawale, 1 bag surf phata mila wo replace karna padega")
}
