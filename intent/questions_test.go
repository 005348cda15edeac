package intent

import (
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestAskedInOtherWords: how far an order has got, one thing or another,
// and English's asking whether are questions about the order, never a
// delivery.
func TestAskedInOtherWords(t *testing.T) {
	r := demoRouter(t)
	texts := []string{"ord no 8127 ka driver kaha tak pahucha", "ashok bhai ka maal rastey me hai ya pahunch gaya",
		"Sir, kindly confirm if order no. 7316 reached Agarwal Medical today."}
	notRoutedAs(t, r, domain.IntentDelivery, texts...)
	routedAs(t, r, domain.IntentOrderStatus, texts...)
	// Said, not asked: "kaha" alone is "said".
	routedAs(t, r, domain.IntentDelivery, "ORD-4410 de diya, Sharma ji ne kaha sab theek hai")
}

// TestAFamilysDeliveryIsNoGoods: a baby's delivery at a hospital that is
// also a customer records nothing.
func TestAFamilysDeliveryIsNoGoods(t *testing.T) {
	notRoutedAs(t, demoRouter(t), domain.IntentDelivery, "bhabhi ki delivery city hospital me hui, beta hua 🎉")
}

// TestANumberedOrderIsNoNewOrder: a report about an order named by its
// number, however many goods it lists, orders nothing again; an order
// whose first count follows the word "order" still orders.
func TestANumberedOrderIsNoNewOrder(t *testing.T) {
	r := demoRouter(t)
	notRoutedAs(t, r, domain.IntentOrder,
		"hello andi, nenu Ravi ni... ee roju Agarwal medical ki vellanu, akkada owner garu leru, vaalla abbayi unnadu. order 6068 maalu motham dinchesanu, soap, handwash anni correct ga unnayi. signature teesukunna.",
		"shivam hotel maal pahuchaya 2 ctn vim liquid 1 ctn GB, ord 7013")
	routedAs(t, r, domain.IntentOrder, "City hospital order: 40 ctn floor cleaner, 30 ctn phenyl, payment cheque after delivery",
		"mehta traders order 24 ctn dishwash liq + 24 ctn air freshener bank transfer")
}

// TestPaidForANumberedOrder: money paid for an order named by its number
// is a payment; money that places an order is not.
func TestPaidForANumberedOrder(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentPayment, "shivam hotel ne 4,200 diye order 1187 ke", "ord 1203 ka payment mil gaya sharma ji se 9,360 cash",
		"rajesh bhai ne 1318 wale order ka pura payment kar diya 11,400 upi se")
	notRoutedAs(t, r, domain.IntentPayment, "Sharma ji ne 20000 ka order diya", "ord 1203 ka payment mil gaya")
}

// TestRecordsInTheRegionsWords: goods received and deliveries said with
// the verbs of Kannada, Malayalam, Odia, Marathi, Telugu and Tamil, the
// typos of the road, and a denial of something else than the handing
// over.
func TestRecordsInTheRegionsWords(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentStockReceived, "garbage bag 40 carton bantu, lorry inda ilsidvi",
		"air freshener 24 carton vannu, 2 can pottiyittund", "vim bar 30 carton asila, 2 carton bhijigala",
		"surf 40 bag aali aaj sakali, godown madhe thevli", "naphthalene 10 carton bandide godown ge, ondu carton damage",
		"sir 70 peti fenyl godown me aagyi")
	routedAs(t, r, domain.IntentDelivery, "order 7206 deliver chesanu, Gupta supermart lo", "ORD-4480 deliver panniachu rajesh kadai la",
		"dlvr dn 6142", "delivery compleat ord 8805", "1450 deliverrd", "delevered ord 8125", "delivery hogai sir agarwal",
		"Hotel Shivam order delivered. Manager was not there, handed over to reception",
		"ORD-2650 delivered pr 2 dozen sabun kam nikla, gaadi me check kiya nahi tha",
		"City hospital wala 4488 de diya, receiving le li hai")
	notRoutedAs(t, r, domain.IntentDelivery, "ORD-2650 was not delivered", "ORD-2650 deliver kiya nahi tha")
}

// TestShortOfTheBillIsNoGoodsReceived: the shop that got fewer goods
// than it was billed for disputes the bill; the godown noting a
// supplier's bill records what came.
func TestShortOfTheBillIsNoGoodsReceived(t *testing.T) {
	r := demoRouter(t)
	notRoutedAs(t, r, domain.IntentStockReceived, "order 2290 me 10 carton colin tha, hamare yaha aaye sirf 7 aur bill 10 ka bana diya",
		"Billed for 20 bags of detergent, only 18 came.")
	routedAs(t, r, domain.IntentStockReceived,
		"Sir aaj subah Kanpur wali gaadi aayi thi usme 80 carton harpic tha, bill pe 84 likha hai 4 kam aaye")
}

// TestOneNumberedOrderAskedAfter: a question about one order named by
// its number, in the words of the regions too, asks its status; a bare
// number beside a question about money does not.
func TestOneNumberedOrderAskedAfter(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentOrderStatus, "ORD5290 delivered or not", "Ordr 1937 deliverd hua ki nahi??",
		"maa order 2453 deliver ayyinda?", "nanna order 3366 elli ide?", "ente order 4128 evide etthi?",
		"mo order no. 1276 kouthi achhi? 2 din hela", "2209 gaya?", "5906 ka maal utar gaya kya")
	notRoutedAs(t, r, domain.IntentOrderStatus, "ये 2000 की कटौती क्यों की गई है?")
	// Whose orders have not gone is the pending list.
	routedAs(t, r, domain.IntentPendingOrders, "Kis kis ka order abhi tak nahi gaya?", "not yet delivered orders for City Hospital")
}

// TestDisputesInTheRegionsWords: an order said not to be the writer's,
// expired goods asked to be taken back or changed, and a shop's goods
// short of a bill charged in full, in the regions' languages; goods
// already taken back on a delivery are news of it.
func TestDisputesInTheRegionsWords(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentHandoff, "aa order 3345 ame aapyo nathi", "8812 order ta ami dii ni", "naanu ee order kottilla",
		"ఈ ఆర్డర్ నేను ఇవ్వలేదు", "ऑर्डर 6120 मी दिलीच नव्हती", "expiry zalela maal pathavlay, parat nya",
		"expiry aana saamaan anuppirukkeenga, thirumba eduthukonga", "expiry aagiro maal kalsidira, badalisi kodi",
		"saadde kol 2 peti phenyl ghatt aayi, bill poora laa ditta", "namma angadige 2 box dishwash kammi bandide, bill full haakidira",
		"maa shop ki oka carton dishwash takkuva vachindi, bill motham vesaru")
	routedAs(t, r, domain.IntentDelivery, "Ganpati enterprises la order pohochla, 1 dozen jhadu kharab hote te parat ghetle")
}

// TestCollectionsAndWishesInTheRegionsWords: who paid yesterday, asked in
// Telugu and Malayalam, and anyone's payment today, ask for the
// collections; days of a month are no amount; thanks and a festival's
// wishes in the regions' scripts greet.
func TestCollectionsAndWishesInTheRegionsWords(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentPaymentsReceived, "aaj kisi ne payment kiya kya?", "ninna evaru evaru payment chesaru?",
		"innale aarokke payment cheythu?")
	notRoutedAs(t, r, domain.IntentPayment, "15 june se 20 june tak ka payment received")
	routedAs(t, r, domain.IntentGreeting, "ok ji dhanyawad, update ke liye 🙏", "okk byee", "theek hai thank you, kal baat karte",
		"ਲੋਹੜੀ ਦੀਆਂ ਲੱਖ ਲੱਖ ਵਧਾਈਆਂ", "பொங்கல் நல்வாழ்த்துக்கள்", "సంక్రాంతి శుభాకాంక్షలు", "ದೀಪಾವಳಿ ಹಬ್ಬದ ಶುಭಾಶಯಗಳು",
		"ഓണാശംസകൾ 🌼")
}

// TestPartsOfANamedOrderHandedOver: half of an order given, goods that
// went of an order named by its number, an order handed over in other
// words, and money promised beside a delivery done.
func TestPartsOfANamedOrderHandedOver(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentDelivery, "order 3604 ka half maal diya, hospital ne bola baaki next week lenge",
		"ord no 2987 half diya hai, GC ka stock gaadi me kam tha", "Sharma ji ko unka order pakda diya",
		"1104 wala maal gaya customer ke paas", "aaj mehta ji ke yaha maal chala gaya 9045 wala",
		"madam order no 2290 mehta traders ko chala gaya, 6 bag surf kam hai woh next trip me",
		"delvry done agrwal ORD 8264 naphthalene 2 box kam", "4850 delivery done. Payment pending bole kal UPI karenge")
	notRoutedAs(t, r, domain.IntentDelivery, "Sharma ji ne 5 carton maal diya", "Balaji Stores ko kal deliver karenge",
		"ORD-1042 delivered, 5000 cash mila, baaki kal denge")
}

// TestTheBooksInTheRegionsScripts: a month's or a week's collection asked
// in Bengali, Telugu and Malayalam, money paid by Google Pay in Malayalam,
// bags in Telugu, and a shop's goods asked after in Devanagari.
func TestTheBooksInTheRegionsScripts(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentPaymentsReceived, "এই মাসে মোট কত টাকা কালেকশন হলো?", "ఈ నెల ఎంత కలెక్షన్ వచ్చింది?",
		"ഈ ആഴ്ച എത്ര കളക്ഷൻ ആയി?")
	routedAs(t, r, domain.IntentPayment, "രാജേഷ് കിരാന 12,000 രൂപ ഗൂഗിൾ പേ ചെയ്തു")
	routedAs(t, r, domain.IntentStockReceived, "సర్ఫ్ 100 బ్యాగులు వచ్చాయి గోడౌన్ కి")
	routedAs(t, r, domain.IntentOrderStatus, "मेरा माल कब तक आएगा भैया")
}

// TestHowToInTheRegionsWords: how to see, put in or write down something
// of the books, asked in Telugu, Kannada, Odia and Hindi.
func TestHowToInTheRegionsWords(t *testing.T) {
	routedAs(t, demoRouter(t), domain.IntentHelp, "order status ela chudali?", "hosa order hege haakodu?",
		"goods received kemiti lekhibi?", "production ka ready maal kaise daalna hai isme",
		"collection ka hisaab kaise dekhu yaha pe")
}

// TestPaymentsAsTheRoadWritesThem: a cheque written "check" beside its
// amount or handed over, money taken from a customer, typed with the
// road's spellings, and the last order paid for, are payments; "check kar
// lo" asks to look, and money given to a customer is paid out.
func TestPaymentsAsTheRoadWritesThem(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentPayment, "Sharma general se 15k ka check liya no 663120",
		"haan matlab aaj Mehta ji ke yahan gaya tha unhone 1.5 lakh ka check de diya",
		"haan ji woh rajesh kirana wale ne pichle order ka poora payment kar diya 16,400 cash mein",
		"rajes kirana se 5 hazar liye kes me", "shivam hotal wale ne 7500 fonpe kiya", "ashok ji ne das hazar thamaye kesh")
	notRoutedAs(t, r, domain.IntentPayment, "Rajesh ko check kar lo 5000 ka", "Mehta ko 2000 de diya")
}

// TestNoDeliveryGivenBackOrStillToGo: goods a customer gave back, an
// order loaded to be delivered later, and an order not yet received are
// no delivery; the van coming back after one is.
func TestNoDeliveryGivenBackOrStillToGo(t *testing.T) {
	r := demoRouter(t)
	notRoutedAs(t, r, domain.IntentDelivery, "hotel shivam wale ne room spray wapas de diya 6 can",
		"agarwal medical se handwash ka 1 cartoon return aaya hai godown mein rakh diya",
		"6678 wala gaadi me rakh diya kal subah deliver karunga",
		"Dear sir, we are yet to receive our order ORD-8839. Please let us know the expected delivery date.")
	notRoutedAs(t, r, domain.IntentOrder, "rajesh kirana se 1 darjan jhadu wapis laya hu unhone bola ab nahi chahiye")
	routedAs(t, r, domain.IntentDelivery, "ord-6322 ✅ Rajesh bhai ne receive kiya, 🚚 wapas aa rahi hai")
}

// TestDeliveriesDoneOnTheWay: an order handed over before the writer
// left, one named by its number said to have come, goods short because
// they were not in the van, and the road's spellings; a delivery asked
// for, one denied, and a wrong item that came are not.
func TestDeliveriesDoneOnTheWay(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentDelivery, "haan Gupta supermart ka maal utaar ke aa raha hu 5190 wala bas",
		"hospital wala 2990 deliver kar ke aa raha hu", "order no 4802 aa gaya hai sir", "ord2875 pahuchgaya",
		"order 6680 ka maal store mein aa gaya, storekeeper ne challan sign kar diya",
		"haan woh shivam hotal ka 4402 pahuncha diya bas ek cartoon room spray kam pad gaya gaadi mein tha hi nahi",
		"dekho haan matlab woh jo kal wala reh gaya tha na Ashok bhai ka 3812 woh aaj pahuncha diya",
		"dilevri kr di ashok provison ki phinail 3 peti kam rahi", "mehta treders 6678 dilivry done")
	notRoutedAs(t, r, domain.IntentDelivery, "ORD-1042 deliver karke aana", "ORD-1042 deliver hua tha hi nahi",
		"order 4802 ka payment aa gaya", "ORD 8076 me dishwash ki jagah handwash aa gaya")
	routedAs(t, r, domain.IntentPaymentsReceived, "sir aj ka colecsan kitna hua", "kal aur aaj mila ke kitna wasool hua")
}

// TestAnOrderReachedOrDeliveredAsked: whether a customer's numbered
// order reached, or an order was delivered, asks its status; a
// customer's money awaited stays their dues. Goods received with the
// damaged part counted after the damage are goods received.
func TestAnOrderReachedOrDeliveredAsked(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentOrderStatus, "gupta bros ka 3317 pahuncha kya unke yahan",
		"Please let me know if 1377 has been delivered to Hotel Shivam.")
	routedAs(t, r, domain.IntentOutstanding, "Mehta ji ka 40000 kab aayega")
	routedAs(t, r, domain.IntentStockReceived, "handwash 5 ctn received, seal tuta hua 1 carton me")
	notRoutedAs(t, r, domain.IntentStockReceived, "GC ke 100 carton damaged aaye")
}

// TestAShopsOwnDues: a shop asking what it owes, in its own words, asks
// its dues; a payment of its not shown in the books disputes them.
func TestAShopsOwnDues(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentOutstanding, "due kitna hai mera", "kitne rupaye udhaar hai mere", "mere khate me kitna likha hai",
		"pichla hisaab kitna bacha hai", "kitna udhar chal raha hai hamara aapke yahan")
	routedAs(t, r, domain.IntentHandoff, "मेरा payment ledger में show नहीं हो रहा")
	notRoutedAs(t, r, domain.IntentOutstanding, "mere bank khate me kitna hai")
}

// TestDentedGoodsAndWhereAnOrderIs: dented goods to be replaced are a
// matter for the office, not goods received; a long message asking where
// an order is orders nothing.
func TestDentedGoodsAndWhereAnOrderIs(t *testing.T) {
	r := demoRouter(t)
	notRoutedAs(t, r, domain.IntentStockReceived, "AF ki can dabi hui aayi hai 5 pcs, replace chahiye")
	notRoutedAs(t, r, domain.IntentOrder, "namaskar, mi Agarwal medical madhun bolto... aamhi magchya athavdyat order dili hoti na, handwash aani soap chi, ti ajun aali nahi. jara sanga na order kuthe adakli aahe, gadi nighali ka nahi.")
}

// TestOrdersTickedAsDelivered: "deliver" right after an order's number,
// or "dono" after two, ending the message or its clause, reports them
// delivered; the same words asked, or put off to a day, do not.
func TestOrdersTickedAsDelivered(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentDelivery, "1871 n 1874 dono deliver", "सर 2388 डिलीवर, 2 कार्टन फिनाइल टूटा",
		"Mehta traders 3 orders - 6001, 6004, 6010 - teeno deliver")
	notRoutedAs(t, r, domain.IntentDelivery, "kal 1042 deliver", "ORD-1042 deliver?", "1042 deliver karo")
}

// TestTheOfficeAskedForInFewWords: a call or a talk asked for and nothing
// else, the office's people said not to answer, to be rude or to ask for
// money, its service or goods said to be poor, and a credit note not set
// off hand over; a call to someone else, or another service's driver,
// does not.
func TestTheOfficeAskedForInFewWords(t *testing.T) {
	r := demoRouter(t)
	wantHandoffs(t, r, map[string]string{
		"baat karni hai":               "asked",
		"HELLO KOI HAI??? PHONE UTHAO": "asked",
		"aapke godown wale phone hi nahi uthate, hum kya karein":                        "asked",
		"aapka delivery wala bahut badtameez hai, gaali de ke gaya":                     "dispute",
		"jhadu ki quality itni ghatiya, do din me saari toot gayi":                      "dispute",
		"delivery boy ne 200 rs extra maange utaarne ke, ye kya system hai":             "dispute",
		"kal bola tha 10 baje tak aa jayega, 5 baj gaye. bahut ganda service hai aapka": "dispute",
		"credit note ka 2,300 adjust nahi hua abhi tak, kab karoge":                     "dispute",
	})
	notRoutedAs(t, r, domain.IntentHandoff, "mummy ko call karo", "video call karo", "uber ka driver phone nahi utha raha",
		"Ola driver ne badtameezi ki, complaint karni hai", "thik hai kal baat karte hain")
}

// TestOrdersGivenByTheirBareNumbers: an order's bare number given to a
// customer, to "unko", or given properly is a delivery; money given by a
// customer, an amount in words, a refund or wages are not.
func TestOrdersGivenByTheirBareNumbers(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentDelivery, "sharmaji ko de diya 3342", "1218 thik se de diya sir",
		"naya customer Laxmi stores, Gandhi nagar, unka 1127 de diya", "1871 aur 1874 dono de diye")
	notRoutedAs(t, r, domain.IntentDelivery, "Rajesh bhai 2000 diye bas itna hi tha unke paas", "Gupta ji 3000 de gaye dukan pe aake",
		"Rajesh ko 5 hazaar de diya", "Rajesh ko 2,300 de diya", "Sharma ko 5000 diya", "Rajesh ko 1200 refund kar diya", "maid ko 4000 de diye")
}

// TestTheRoadsGivingAndAShopsVoice: a shop said to receive an order, and
// the road's "I gave" in Tamil, Kannada and Telugu, are deliveries; goods
// a shop refused are not the order cancelled; a shop writing of goods
// left at its place, or of money its books do not show, disputes.
func TestTheRoadsGivingAndAShopsVoice(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentDelivery, "ashok bhai ne 1202 receive kar liya", "hotel shivam order kuduthutten, oru carton floor cleaner kammi",
		"Mehta traders ge maal kottidini, 2 carton phenyl kammi", "Agarwal medical ki saruku ichhesanu, handwash oka carton takkuva")
	notRoutedAs(t, r, domain.IntentOrder, "Mehta traders ge maal kottidini, 2 carton phenyl kammi")
	notRoutedAs(t, r, domain.IntentCancel, "hospital me 1140 diya, unhone 10 mop me se 2 reject kiye handle tuta tha")
	routedAs(t, r, domain.IntentCancel, "reject ORD-1402 - minimum order se kam hai")
	wantHandoffs(t, r, map[string]string{
		"galat dukaan ka maal humare yaha de gaye, ye Sharma store ka order tha":  "dispute",
		"me Ravi bhai ne 10,000 rokda aapya hata, tamara hisaab ma nathi dekhatu": "dispute",
	})
	routedAs(t, r, domain.IntentPayment, "Gupta Brothers 35000 cheque kuduthanga, cheque no 220415")
}

// TestOneOrderInTheRegionsScripts: an order asked after, and a delivery
// done, in the words and scripts of Tamil, Odia, Gujarati, Telugu,
// Malayalam, Kannada and Marathi; and a customer given their goods.
func TestOneOrderInTheRegionsScripts(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentOrderStatus, "என் ஆர்டர் எப்போது வரும்?", "ମୋ ଅର୍ଡର କେବେ ଆସିବ?", "મારો ઓર્ડર ક્યારે આવશે?",
		"నా ఆర్డర్ ఎక్కడ ఉంది?", "എന്റെ ഓർഡർ എവിടെ എത്തി?", "order 1205 yaavaga barutte?")
	routedAs(t, r, domain.IntentDelivery, "ஆர்டர் 9023 டெலிவரி ஆயிடுச்சு, குப்தா சூப்பர்மார்ட்", "1289 delivery aipoyindi",
		"1296 delivery kazhinju", "1267 chi delivery jhali", "ORD-1150 deliver pannitten", "Gupta ji ko de diya")
	notRoutedAs(t, r, domain.IntentDelivery, "Gupta ji ko 5000 de diya", "Gupta ji ko de do")
}

// TestMoreWaysToReachTheOffice: a call back on the writer's own number,
// someone asked in English to reach the writer in a long message, a
// credit note asked for, and what the writer is said to owe called
// wrong, hand over; a credit note the office is to give does not.
func TestMoreWaysToReachTheOffice(t *testing.T) {
	r := demoRouter(t)
	wantHandoffs(t, r, map[string]string{
		"mujhe callback chahiye 9810000007 pe, Agarwal Medical se":                                                                                       "asked",
		"sir sorry to say but service has become very bad lately. late deliveries, wrong items, nobody picks up. please have someone senior contact me.": "asked",
		"Ashok Provision ka 4 bag surf return aaya godown me, bag phate the. office credit note bana de":                                                 "dispute",
		"Your bot says I owe 35000. That's wrong, we settled everything before Diwali. Need someone to look into it.":                                    "dispute",
	})
	notRoutedAs(t, r, domain.IntentHandoff, "Sharma ji ko 500 credit note dena hai return ka")
}

// TestMoneyAsTheAccountsWriteIt: money collected or received as a
// payment, with nothing owed, and a UTR, record a payment; a shop's own
// balance, in Punjabi and in few words, asks its dues.
func TestMoneyAsTheAccountsWriteIt(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentPayment, "collected 8k frm ashok provision, part payment",
		"Gupta ji (supermart) ne 30,000 bank me daale hain, UTR 4199 0021 7733", "अशोक प्रोव्हिजन कडून ३००० रुपये मिळाले, गुगल पे वर")
	notRoutedAs(t, r, domain.IntentPayment, "पड़ोस वाले शर्मा अंकल ने 500 रुपये उधार लिए थे, आज लौटा दिए")
	routedAs(t, r, domain.IntentOutstanding, "sada kinna baaki hai ji?", "humara hisaab batao kitna dena hai", "balance batao bhai")
	notRoutedAs(t, r, domain.IntentOutstanding, "bank balance batao")
}

// TestGoodsSaidToHaveComeAndNothingMore: goods or an order said to have
// come, with no count, supplier, trouble or other service, are a
// delivery the reader asks about; the same with a count, a supplier, a
// denial or an app's order are not.
func TestGoodsSaidToHaveComeAndNothingMore(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentDelivery, "maal aa gaya bhai, sab theek hai", "हमारा ऑर्डर पहुंच गया है", "gaadi aayi thi, maal utar gaya",
		"station road wali dukan ka maal pahuncha diya bhai")
	notRoutedAs(t, r, domain.IntentDelivery, "supplier ka maal aa gaya", "maal aaya hi nahi", "swiggy ka order aa gaya",
		"dmart se ghar ka saman aa gaya", "maal aaya kya?", "wrong maal aaya")
}

// TestPendingAndHowLong: anything pending for a customer, or the one
// word "undelivered", lists pending orders, where how much is pending
// asks dues; how long an order named as one still takes, or whether a
// number was loaded, asks its status, where a bare number's distance
// does not.
func TestPendingAndHowLong(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentPendingOrders, "Is there anything pending for Agarwal Medical?", "undelivered")
	notRoutedAs(t, r, domain.IntentPendingOrders, "Ashok provision ka kitna pending hai")
	routedAs(t, r, domain.IntentOrderStatus, "ORD 4872 kitna time aur lagega", "tempo me 5522 chadha ya nahi")
	notRoutedAs(t, r, domain.IntentOrderStatus, "ghar se station 200 km hai, kitna time lagega")
}

// TestATaxAReceiptAndAMessageForTheOwner: a tax asked why, a receipt
// said wrong and a message given for the owner hand over; how to reckon
// a tax, and a message for a customer, do not.
func TestATaxAReceiptAndAMessageForTheOwner(t *testing.T) {
	r := demoRouter(t)
	wantHandoffs(t, r, map[string]string{
		"jhadu pe 18% GST kyu? jhadu pe 12 lagta hai na":                    "dispute",
		"payment ki receipt galat bani hai, 5000 ki jagah 500 likha hai":    "dispute",
		"owner ko mera msg de do ki agle mahine se maal kahin aur se lunga": "asked",
	})
	notRoutedAs(t, r, domain.IntentHandoff, "18% GST inclusive price se base price kaise nikalte hain", "Rajesh ko mera msg de do")
}

// TestPoorQualityAndExtraMoneyAskedWhy: goods of poor quality to take
// back, and a charge or money over the bill asked why in Bengali and
// Kannada, hand over; a call's poor quality does not.
func TestPoorQualityAndExtraMoneyAskedWhy(t *testing.T) {
	r := demoRouter(t)
	wantHandoffs(t, r, map[string]string{
		"पोछे खराब क्वालिटी के हैं, सब वापस करने हैं":                 "dispute",
		"ei extra charge ta keno laglo bujhte parchi na, ke dekhben?": "dispute",
		"ee extra 300 rupees yaake hakkidira bill alli?":              "dispute",
	})
	notRoutedAs(t, r, domain.IntentHandoff, "video call ki quality kharab hai")
}

// TestMoreSpellingsOfTheRoad: goods come in Bengali and Tamil spellings,
// a delivery done in Marathi's "zali" and the road's "dilevar", and the
// day before yesterday's collection.
func TestMoreSpellingsOfTheRoad(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentStockReceived, "glass cleaner er 60 carton godown e eseche", "floor cleaner 20 carton vandhuduchu, invoice 4455")
	routedAs(t, r, domain.IntentDelivery, "1090 chi delivery zali, 1 box dishwash kami", "Shivam ka 1155 dilevar ho gaya")
	routedAs(t, r, domain.IntentPaymentsReceived, "kal aur parson ka payment list bhejo")
}

// TestWhatTheShopsDisputeIsNoRecord: someone's "no." is their number, an
// order denied ("diya hi nahi tha"), goods "you supplied", the wrong
// goods sent in another's place, torn goods to take back in Marathi, and
// rent paid, record nothing; how to reach the office through Munshi's
// menu is help, and thanks for a call that took place ask for nobody.
func TestWhatTheShopsDisputeIsNoRecord(t *testing.T) {
	r := demoRouter(t)
	notRoutedAs(t, r, domain.IntentCancel, "boss ka no. plz")
	notRoutedAs(t, r, domain.IntentDelivery, "Fwd: Ashok bhai: humne ye order diya hi nahi tha, 1256 ka bill hatao",
		"The handwash you supplied expired last month. This is unacceptable for a hospital.")
	notRoutedAs(t, r, domain.IntentOrder, "Fwd: Agarwal medical: hume harpic ki jagah lizol bhej diya, galat maal aaya hai",
		"detergent che packet phatlele hote, parat ghya")
	notRoutedAs(t, r, domain.IntentPayment, "I paid my house rent of Rs. 18,000 today; please remind me to collect the receipt.")
	wantHandoffs(t, r, map[string]string{
		"boss ka no. plz": "asked",
		"Fwd: Ashok bhai: humne ye order diya hi nahi tha, 1256 ka bill hatao":           "dispute",
		"rajesh bhai ka balance galat dikha raha hai unhone 10000 pichle hafte diya tha": "dispute",
	})
	routedAs(t, r, domain.IntentHelp, "menu me 'talk to agent' ka option kahan hai", "how do i use this bot to contact your office",
		"office se baat karne ke liye menu me kya dabana hai?")
	notRoutedAs(t, r, domain.IntentHelp, "hotel shivam mein kya order karun, unka menu dikhao", "WhatsApp pe menu option kahan hai settings wala?")
	notRoutedAs(t, r, domain.IntentHandoff, "thanks seth ji, baat ho gayi 🙏", "Priya madam ne call kar liya, dhanyavaad")
}

// TestACallAskedOfTheOffice: a call asked for in a few words, in any
// script, hands over; a call to someone else, a number to dial, a call of
// another kind, one the writer means to make or one reported does not.
func TestACallAskedOfTheOffice(t *testing.T) {
	r := demoRouter(t)
	wantHandoffs(t, r, map[string]string{
		"ring me":                      "asked",
		"koi bhi call kar lo yaar":     "asked",
		"jab time mile phone kar lena": "asked",
		"कृपया मुझे कॉल करें":                        "asked",
		"वेळ मिळाला की एकदा फोन करा":                 "asked",
		"KITNI BAAR BOLU CALL KARO!!! 4 DIN HO GAYE": "asked",
		"Third message today. CALL ME.":              "asked",
	})
	notRoutedAs(t, r, domain.IntentHandoff, "call me a cab", "amma ge call maadi", "tammanige phone maadi", "video call karo",
		"9876543210 pe call karo", "tell the customer to call me", "aaj kisko payment ke liye phone karna chahiye",
		"mujhe kal subah 6 baje utha dena, call kar dena", "BSNL landline 3 din se dead hai, koi sunta hi nahi")
	routedAs(t, r, domain.IntentDelivery, "sir jain medicos gaya tha, maal de diya, owner ne kaha aage se pehle call karna")
}

// TestTheOfficesPeopleSentForAndToldOf: the accounts people told to call,
// someone's calling for the owner passed on, a talk of some minutes
// arranged, a person of the office sent for, the office's number in
// Devanagari, and anyone asked for at the office, hand over.
func TestTheOfficesPeopleSentForAndToldOf(t *testing.T) {
	r := demoRouter(t)
	wantHandoffs(t, r, map[string]string{
		"tell boss i called":                                                      "asked",
		"hisaab wale ko bolo phone karein":                                        "asked",
		"sahab ko bolo Ashok bhai ne bulaya hai":                                  "asked",
		"boss se 5 min baat karwa do urgent hai":                                  "asked",
		"munim ji ko bhejna kal subah, khata milana hai":                          "asked",
		"Kindly send your representative to our hotel tomorrow between 11 and 1.": "asked",
		"दफ्तर का नंबर क्या है?":                                                  "asked",
		"hello? koi hai office me?":                                               "asked",
	})
	notRoutedAs(t, r, domain.IntentHandoff, "koi hai jo GC 50 carton de sake?", "koi baat nahi")
}

// TestTheOfficesReminderDisputed: a payment said still shown in the
// office's reminder hands over; a reminder to set is not the office's.
func TestTheOfficesReminderDisputed(t *testing.T) {
	r := demoRouter(t)
	wantHandoffs(t, r, map[string]string{
		"Payment of 45,000 made via NEFT on 2nd, UTR 458210093311. Still showing as outstanding in your reminder.": "dispute",
	})
	notRoutedAs(t, r, domain.IntentHandoff, "reminder set karo kal 5 baje")
}

// TestStockDuesAndOrdersAskedInMoreWords: goods asked whether they are
// there (Tamil's irukka, Telugu's unda) or can be given "ho payega",
// goods asked to arrive, one's dues asked in English and Punjabi, who owes
// the most, Telugu's "my order", sales in Gujarati, pending in Marathi and
// collections by bank transfer. Who paid today asks the collections, not
// the dues.
func TestStockDuesAndOrdersAskedInMoreWords(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentStock, "GC 40 carton irukka?", "harpic 20 carton unda?", "Sharma ji ko 50 carton phenyl chahiye, ho payega?",
		"did the harpic stock arrive?")
	routedAs(t, r, domain.IntentOutstanding, "how much do I owe you?", "mera kinna baaki reh gaya?", "which shops owe us the most")
	routedAs(t, r, domain.IntentOrderStatus, "naa order eppudu vastundi?")
	routedAs(t, r, domain.IntentPendingOrders, "प्रलंबित ऑर्डर किती आहेत?")
	notRoutedAs(t, r, domain.IntentOutstanding, "who paid today")
}

// TestAllTheDuesAskedAsTheMarketsMoney: what every customer owes, asked
// as the money to get from the market in English, Kannada and Tamil;
// everyone's dues as a file; who owes the most in Tamil and Gujarati.
// Buying from the market is no dues question.
func TestAllTheDuesAskedAsTheMarketsMoney(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentOutstanding, "how much total we have to get from the market men, all parties together?",
		"market alli ottu eshtu duddu barbeku ellarinda", "market la mothama evvalavu panam varanum ellaar kittayum",
		"send everyone's dues in excel", "yaar kitta adhigama baaki irukku?", "સૌથી વધારે બાકી કોના પર છે?")
	notRoutedAs(t, r, domain.IntentOutstanding, "market se sabzi lena hai", "market jaake kya lena hai")
}
