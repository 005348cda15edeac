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
		wale attach attachment ke ki ka`)
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
