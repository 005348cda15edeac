package intent

import (
	"slices"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestRegionalOfficeAsk: the office asked for in Marathi, Gujarati,
// Punjabi, Bengali, Tamil, Telugu and Kannada, in their scripts and
// romanised, hands over; a call to family, a doctor's number and a
// meeting with a bank's manager do not.
func TestRegionalOfficeAsk(t *testing.T) {
	r := demoRouter(t)
	wantHandoffs(t, r, map[string]string{
		"मला मालकांशी बोलायचं आहे, लवकर फोन करायला सांगा.":                   "asked",
		"तुमचा डिलिव्हरीवाला मुलगा खूप उद्धट बोलला. साहेबांच्या कानावर घाला": "asked",
		"Malak la sanga mala call karayla, urgent aahe":   "asked",
		"મારે શેઠ સાથે વાત કરવી છે, ફોન કરાવો.":           "asked",
		"એકાઉન્ટ વાળા બેનને કહો મને કોલ કરે":              "asked",
		"ઓફિસનો નંબર આપો ને":                              "asked",
		"koi bande naal gal karao ji, bot naal nahi honi": "asked",
		"আপনাদের ডেলিভারির লোক খুব খারাপ ব্যবহার করেছে, ম্যানেজারকে জানান": "asked",
		"முதலாளியிடம் பேச வேண்டும், கொஞ்சம் கால் பண்ண சொல்லுங்க.":          "asked",
		"ஆபீஸ் நம்பர் கொடுங்க":                          "asked",
		"యజమానితో మాట్లాడాలి, ఫోన్ చేయమని చెప్పండి.":    "asked",
		"ಮಾಲೀಕರ ಜೊತೆ ಮಾತಾಡಬೇಕು, ಒಮ್ಮೆ ಕಾಲ್ ಮಾಡಲು ಹೇಳಿ.": "asked",
	})
	notRoutedAs(t, r, domain.IntentHandoff,
		"आईला फोन लाव, जेवण झालं का विचारायचंय",
		"మా అమ్మకి ఫోన్ చెయ్యి",
		"ডাক্তারের নম্বরটা দাও তো",
		"બેંક મેનેજર સાથે કાલે મીટિંગ છે, યાદ કરાવજે",
		"ನನ್ನ ಹೆಂಡತಿಗೆ ಕಾಲ್ ಮಾಡು",
	)
}

// TestRegionalStemsHaveADevelopmentMessage: every word start the regional
// readings match begins a word of a training or development message, as
// every whole word of the rules must occur in one.
func TestRegionalStemsHaveADevelopmentMessage(t *testing.T) {
	ev := readEvidence(t)
	for _, stem := range slices.Concat(regionalWho, regionalAsk) {
		begins := func(w string) bool { return strings.HasPrefix(w, stem) }
		if !slices.ContainsFunc(slices.Collect(mapKeys(ev.canonical)), begins) && !slices.ContainsFunc(slices.Collect(mapKeys(ev.raw)), begins) {
			t.Errorf("no training or development word begins with %q", stem)
		}
	}
}

func mapKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
