package intent

import (
	"context"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// Charts and files are asked for in English, Hindi and Hinglish; the
// question keeps its own intent and the format is read beside it.
func TestRouteFormat(t *testing.T) {
	r := demoRouter(t)
	tests := []struct {
		text   string
		intent domain.Intent
		format Format
	}{
		{"sales ka chart bhejo", domain.IntentReport, FormatChart},
		{"last month ki bikri graph", domain.IntentReport, FormatChart},
		{"GC ki sales trend", domain.IntentReport, FormatChart},
		{"top 10 customers chart", domain.IntentReport, FormatChart},
		{"send me a sales trend chart", domain.IntentReport, FormatChart},
		{"बिक्री का ग्राफ भेजो", domain.IntentReport, FormatChart},
		{"pichle hafte ki sales ka graf", domain.IntentReport, FormatChart},
		{"outstanding by customer chart", domain.IntentOutstanding, FormatChart},
		{"GC ka stock chart", domain.IntentStock, FormatChart},
		{"outstanding excel mein bhejo", domain.IntentOutstanding, FormatExcel},
		{"export outstanding to Excel", domain.IntentOutstanding, FormatExcel},
		{"who owes us money excel", domain.IntentOutstanding, FormatExcel},
		{"pending orders ki sheet", domain.IntentPendingOrders, FormatExcel},
		{"stock list excel", domain.IntentStock, FormatExcel},
		{"स्टॉक एक्सेल में भेजो", domain.IntentStock, FormatExcel},
		{"this month sales xls file", domain.IntentReport, FormatExcel},
		{"sales chart in excel", domain.IntentReport, FormatExcel}, // the file wins
		{"who owes us money?", domain.IntentOutstanding, FormatText},
		{"pichle hafte ki sales", domain.IntentReport, FormatText},
	}
	for _, tt := range tests {
		d := r.Route(context.Background(), tt.text)
		if d.Intent != tt.intent || d.Format != tt.format {
			t.Errorf("%q → %s/%q (%s, %s), want %s/%s", tt.text, d.Intent, d.Format, d.Tier, d.Reason, tt.intent, tt.format)
		}
	}
}

// Stock asked for as a chart or a file beside words no rule lists, the
// kinds of goods or another language's verbs, is the stock report in
// that format; the share market's stock, a complaint or a denial is not.
func TestStockAsAFileBesideUnlistedWords(t *testing.T) {
	r := demoRouter(t)
	for _, text := range []string{"namkeen mithai stock ka chart bhejo", "stock ta chart kore pathao",
		"coffee, tea, godambi stock chart maadi kalsi", "ice cream ani frozen stock chart bhej do"} {
		if d := r.Route(context.Background(), text); d.Intent != domain.IntentStock || d.Format != FormatChart {
			t.Errorf("%q → %s/%q (%s)", text, d.Intent, d.Format, d.Reason)
		}
	}
	for _, text := range []string{"stock market ka chart bhejo", "sensex stock chart", "stock chart galat hai",
		"stock chart nahi chahiye", "Rajesh ko stock chart bhejo", "stock excel app error de raha"} {
		if stockAsFile(shapeOf(r.Normalize(text), nil)) {
			t.Errorf("%q read as stock asked for as a file", text)
		}
	}
}

// A format word never turns a message into an order, a confirmation or a
// cancellation, and only questions carry a format.
func TestFormatOnlyOnQuestions(t *testing.T) {
	r := demoRouter(t)
	for _, text := range []string{"cancel the excel", "ok excel bhejo", "excel kaise banate hai", "hi chart", "5 carton GC for Rajesh excel",
		"file cancel karo", "approve the sheet"} {
		d := r.Route(context.Background(), text)
		switch d.Intent {
		case domain.IntentConfirm, domain.IntentCancel:
			t.Errorf("%q → %s (%s)", text, d.Intent, d.Reason)
		}
		if IsQuestion(d.Intent) == (d.Format == "") {
			t.Errorf("%q → %s with format %q", text, d.Intent, d.Format)
		}
	}
}

// A product whose name holds a format word is a product, not a format.
func TestFormatWordInAName(t *testing.T) {
	r := routerFor(t, Vocabulary{Products: []domain.Product{{SKU: "CP01", Name: "Chart Paper", Unit: "sheet"}}})
	if d := r.Route(context.Background(), "chart paper ka stock"); d.Intent != domain.IntentStock || d.Format != FormatText {
		t.Fatalf("chart paper ka stock → %s/%q (%s)", d.Intent, d.Format, d.Reason)
	}
}

// TestOnlyAsksFormat: a message that asks for the last answer as a chart
// or a file and says nothing else; a question of its own is not one.
func TestOnlyAsksFormat(t *testing.T) {
	r := demoRouter(t)
	for text, want := range map[string]Format{
		"iska excel bhejo": FormatExcel, "excel mein bhejo": FormatExcel, "chart mein dikhao": FormatChart,
		"iska chart bhejo": FormatChart, "excel file bhej do": FormatExcel, "this as a chart please": FormatChart,
		"excel format mein chahiye sir": FormatExcel, "chart chahiye bhai": FormatChart, "stock chahiye": FormatText,
		"outstanding excel mein bhejo": FormatText, "GC ka chart": FormatText, "bhejo": FormatText, "kal ki sales excel": FormatText,
		// In Gujarati, Nepali and Konkani.
		"enu excel mokli do": FormatExcel, "chart banayera pathaidinu": FormatChart, "tem excel-an dhad": FormatExcel,
	} {
		got, ok := OnlyAsksFormat(r.Normalize(text))
		if ok != (want != FormatText) || ok && got != want {
			t.Errorf("OnlyAsksFormat(%q) = %s, %v; want %s", text, got, ok, want)
		}
	}
}
