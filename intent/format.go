package intent

import "github.com/munshi/munshi/internal/domain"

// Format is how a question wants its answer: words in WhatsApp text, a
// chart, or an Excel file.
type Format string

const (
	FormatText  Format = "text"
	FormatChart Format = "chart"
	FormatExcel Format = "excel"
)

// Words that ask for a picture or a file, in canonical spelling (the
// spellings table folds "graf", "ग्राफ", "xls", "एक्सेल", "sheets" into
// these). A word inside a recognised product or customer name is not read:
// the shape has a placeholder there.
var (
	chartWords = words(`chart graph trend plot diagram visual visualise visualize pie histogram`)
	excelWords = words(`excel spreadsheet sheet export download csv file workbook`)
	// formatFillers say how to deliver a format ("excel mein bhejo",
	// "export to a sheet"); with the format words they are set aside
	// when the rules look again at what the question is about.
	formatFillers = words(`bhejo bhej send sent dedo de do dena give share forward karo kar banao bana
		banake make create generate as to by in into mein me pe par on a an the form format wala wali
		wale attach attachment ke ki ka` +
		// Gujarati's "in" and "make", Nepali's "having made", Kannada's
		// "make", Konkani's "send" and "in".
		` ma banavi banayera maadi dhad an`)
)

// questions are the intents a format applies to.
var questions = map[domain.Intent]bool{
	domain.IntentStock: true, domain.IntentOutstanding: true, domain.IntentPendingOrders: true, domain.IntentReport: true,
	domain.IntentPaymentsReceived: true,
}

// IsQuestion reports whether in is a question about the books, the
// intents that carry a Format.
func IsQuestion(in domain.Intent) bool { return questions[in] }

// formatOf reads the format a message asks for from its shape. A file
// word wins over a picture word: "chart in excel" wants the file.
func formatOf(shape []string) Format {
	f := FormatText
	for _, w := range shape {
		switch {
		case excelWords[w]:
			return FormatExcel
		case chartWords[w]:
			f = FormatChart
		}
	}
	return f
}

// withoutFormat is shape less the words that only ask for a format, so
// that "outstanding excel mein bhejo" reads to the rules as "outstanding".
func withoutFormat(shape []string, buf []string) []string {
	for _, w := range shape {
		if !chartWords[w] && !excelWords[w] && !formatFillers[w] {
			buf = append(buf, w)
		}
	}
	return buf
}

// formatReferents point at the answer just given: "iska excel", "this as
// a chart".
var formatReferents = words(`iska iski iske isko ise isse uska uski uske usko this it that ye yeh wo woh is us
	inka unka file please pls bhi` +
	// Gujarati's "of it", Konkani's "that".
	` enu tem`)

// OnlyAsksFormat reports the format a message asks for when that is all
// it says: format words, the words that deliver one and words pointing
// at the answer just given ("iska excel bhejo", "chart mein dikhao"),
// forms of address and words of wanting ("excel format mein chahiye
// sir"), naming nothing.
func OnlyAsksFormat(n Normalized) (Format, bool) {
	if len(n.Entities) > 0 || len(n.Tokens) == 0 || len(n.Tokens) > 8 {
		return FormatText, false
	}
	shape := make([]string, 0, len(n.Tokens))
	for _, t := range n.Tokens {
		w := t.Text
		if !chartWords[w] && !excelWords[w] && !formatFillers[w] && !formatReferents[w] && !showWords[w] && !fillers[w] &&
			!wanting[w] {
			return FormatText, false
		}
		shape = append(shape, w)
	}
	f := formatOf(shape)
	return f, f != FormatText
}

// showWords ask to be shown: "chart mein dikhao".
var showWords = words(`dikhao dikha show batao`)

// stockAsFile reads a short message that asks for stock as a chart or a
// file beside words no stock rule lists, the kinds of goods ("namkeen
// mithai", "ice cream ani frozen") or another language's verbs ("kore
// pathao", "banavi ne mokal"), as the stock report in that format: no
// customer, count, order or money is named, nothing is denied or
// complained of, and it is not the share market's ("stock market ka
// chart").
func stockAsFile(shape []string) bool {
	if len(shape) > 10 || !anyOf(shape, stockFileWords) {
		return false
	}
	for _, w := range shape {
		switch {
		case w == phCustomer || w == phNumber || w == phOrderRef || w == phSize,
			negations[w], wrongGoods[w], complaintWords[w], troubleWords[w], modeWords[w], shareMarket[w]:
			return false
		}
	}
	return true
}

var (
	stockFileWords = words("stock inventory")
	shareMarket    = words("market share sensex nifty")
)
