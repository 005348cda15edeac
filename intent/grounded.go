package intent

import "github.com/munshi/munshi/internal/domain"

// A question about the books names something of them: a product, a
// customer, an order, a unit of goods, or a word of the books' own
// ("stock", "dues", "sales"). "kitni garmi hai", "kitna time bacha hai" or
// "kitne seconds baaki hai" have the shape of a stock or dues question and
// nothing of the books in them; answering them with a stock list or the
// dues would be answering something nobody asked. The model abstains on
// such a question: it is left to the LLM, which reads the whole sentence,
// or to the polite reply that Munshi did not understand.

// booksWords are the words that make a question one about the books,
// whatever intent it is read as.
var booksWords = words(`PRODUCT CUSTOMER ORDERREF UNIT SIZE
	stock maal inventory godown available ready production wip bacha bache khatam reorder item items
	outstanding dues due baaki udhaar owes owe owed balance overdue receivable receivables unpaid paid
	recovery recover payment payments paise paisa rupees money amount
	collection collected collect received jama vasooli receipt receipts credit cheque cash upi neft rtgs transfer
	sales sale sold sell bikri becha beche bika bought kharida kharide dhanda growth revenue report
	dashboard turnover business top customer customers product products
	order orders ord pending deliver delivered delivery dispatch status draft drafts
	bill bills billing invoice gst digest summary vikri ugrahi limit
	chart graph trend excel sheet file`)

// ungrounded says why a question names nothing of the books, or nothing.
func ungrounded(in domain.Intent, shape []string) string {
	if !IsQuestion(in) && in != domain.IntentOrderStatus {
		return ""
	}
	// Time left ("kitne minutes baaki hai", "timer khatam hua?") has the
	// books' words of what is left, and is about the clock unless goods,
	// a customer or an order are named.
	if anyOf(shape, clockWords) && !anyOf(shape, namedBooks) {
		return "a question about time, not the books"
	}
	// Shares bought or sold ("HUL ka stock buy karna chahiye kya", "which
	// stock should I buy for long term") are the market's stock, unless
	// the catalog's goods are named.
	if sharesAsked(shape) {
		return "a question about shares, not the books"
	}
	if anyOf(shape, booksWords) {
		return ""
	}
	return "a " + string(in) + " question that names nothing of the books"
}

// offTopic reports a message the model leans to reading as none of
// Munshi's, without being sure, that names nothing of the books, the
// customers ("party") or the help Munshi gives: "how far is Agra from
// here", "kitne baj gaye", "rashifal batao". No reading the LLM could
// give would make it a question Munshi answers with a figure, so it gets
// the polite reply at once; a message with a word of the books ("how
// much money is stuck in the market") is still left to the LLM.
func offTopic(top domain.Intent, shape []string) bool {
	return top == domain.IntentUnknown && !anyOf(shape, booksWords) && !anyOf(shape, askedOfMunshi)
}

// sharesAsked reports shares asked about: their words, or stock to buy
// with no goods, customer or order named. Customers buy too ("which
// customer bought the most").
func sharesAsked(shape []string) bool {
	if anyOf(shape, namedThings) {
		return false
	}
	return anyOf(shape, sharesWords) || anyOf(shape, buyWords) && anyOf(shape, stockWords) && !anyOf(shape, buyersWords)
}

var (
	// sharesWords speak of shares and investing; namedThings are the
	// catalog's goods, a customer or an order named.
	sharesWords = words("invest shares sensex nifty")
	namedThings = words("PRODUCT CUSTOMER ORDERREF UNIT SIZE")
	buyWords    = words("buy")
	buyersWords = words("customer customers party buyers")
)

// askedOfMunshi are the words, besides the books', that make a message
// one for Munshi: a customer called a party, its account, and help.
var askedOfMunshi = words("party hisaab khata ledger menu help madad")

// clockWords speak of time; namedBooks name something of the books that
// time may be asked of ("GC kitne time me khatam hoga").
//
// troubleWords say that an app or a gateway is failing: "payment gateway
// down hai", "paytm error de raha hai". A complaint that names a payment
// is not a question about dues. A word of running says so only when
// denied: "UPI nahi chal raha" is a complaint, "sales kaisi chal rahi
// hai" a question about sales.
var (
	clockWords   = words("time timer minute minutes ghante")
	namedBooks   = words("PRODUCT CUSTOMER ORDERREF UNIT payment payments dues outstanding stock maal order orders")
	troubleWords = words("gateway app server down fail failed failing atak error")
	runningWords = words("chal")
)

// complaint says why the model's reading is a complaint instead: a
// delivery the shop that got it complains of, an order whose message
// says it is a complaint, a question about a payment app; or nothing.
func complaint(in domain.Intent, shape []string) string {
	if in == domain.IntentDelivery && shopComplains(shape) {
		return "the shop that got the goods complains of them, as no delivery report does"
	}
	if in == domain.IntentOrder && anyOf(shape, complaintWords) {
		return "a complaint about goods, not an order for them" // "विषय: फिनाइल की गुणवत्ता के संबंध में शिकायत …"
	}
	if !IsQuestion(in) || !anyOf(shape, troubleWords) && !(anyOf(shape, runningWords) && anyOf(shape, negations)) {
		return ""
	}
	return "a complaint about a payment app, not a question about the books"
}

// A discount is the owner's to give, never a figure from the books: "kitna
// discount de sakte hain Rajesh ko?" is answered as such, not with the
// stock list its shape resembles. An order that mentions one is read by
// the rules before this.
var discountWords = words("discount chhoot")

// NotOursDiscount marks a message asking for a discount.
const NotOursDiscount = "discount"

// Orders, parcels and bookings of other services are the person's own:
// "mera myntra order status", "PNR status check karo 4521367890", "flight
// status of 6E 204", "DTDC courier tracking no 7823411029 kahan hai" look
// like an order's status but are not about the books, and no business
// word can make them so. (The distributor's goods go in its own vehicles.)
var otherServices = words("amazon flipkart myntra meesho swiggy zomato uber ola pnr flight courier awb dtdc bluedart")

// NotOursService marks a message about another service's order or booking.
const NotOursService = "service"
