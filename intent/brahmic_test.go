package intent

import (
	"context"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestOtherScriptsReadAsDevanagari: Bengali, Gurmukhi, Gujarati, Oriya,
// Tamil, Telugu, Kannada and Malayalam words are split as the Devanagari
// spelling of the same letters, with the
// signs Devanagari lacks written out, and their digits as digits.
func TestOtherScriptsReadAsDevanagari(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ગ્લાસ", "ग्लास"},   // Gujarati
		{"કાર્ટન", "कार्टन"}, // Gujarati
		{"ਦਿੱਤਾ", "दित्ता"},  // Gurmukhi addak doubles the ta
		{"ਸੰਤ", "संत"},       // Gurmukhi tippi is a nasal
		{"ਇੱ", "इ"},          // an addak before nothing is dropped
		{"ਖ਼ਬਰ", "ख़बर"},     // Gurmukhi nukta letters
		{"মাল", "माल"},       // Bengali
		{"হঠাৎ", "हठात"},     // Bengali khanda ta
		{"৪৫০০", "4500"},     // Bengali digits
		{"૧૨", "12"},         // Gujarati digits
		{"\u0af9", "\u0af9"}, // Gujarati zha, past the block Devanagari shares: kept
		{"ਕੈਸ਼", "कैश"},      // Gurmukhi sa with a nukta is sha
		{"ஸ்டாக்", "स्टाक"},  // Tamil; a virama ending the word is dropped
		{"పంపండి", "पंपंडि"}, // Telugu
		{"ಓಕೆ", "ओके"},       // Kannada, its short e as Hindi's e
		{"ಏನೇನು", "एनेनु"},   // Kannada's length mark adds nothing
		{"ഇതിൽ", "इतिल्"},    // Malayalam chillu l
		{"ଓଡ଼ିଆ", "ओड़िआ"},   // Oriya
		{"௧௨", "12"},         // Tamil digits
	} {
		got := splitWords(c.in, nil)
		if len(got) != 1 || got[0].text != c.want || got[0].start != 0 || got[0].end != len(c.in) {
			t.Errorf("splitWords(%q) = %+v, want one word %q over the whole text", c.in, got, c.want)
		}
	}
}

// TestOtherScriptsRouted: goods received in Gujarati reach the catalog
// and the rules' words; a message in one of these scripts with a word no
// table reads is never guessed to be an order.
func TestOtherScriptsRouted(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentStockReceived, "ગ્લાસ ક્લીનર ના 40 કાર્ટન આવી ગયા છે",
		// Names heard by their sound in every script, a word of a
		// listed Devanagari name among them ("क्लीनर"); Gurmukhi's
		// carton without its halant.
		"ਸਾਬਣ 40 ਕਾਰਟਨ ਆਇਆ", "ફ્લોર ક્લીનર 30 કાર્ટન આવ્યા", "फ्लोर क्लीनर के 40 कार्टन आए")
	notRoutedAs(t, r, domain.IntentOrder, "ফিনাইল ৪০ কার্টন নেমেছে, ২টা লিক করছে", "সাবান ৬০ কার্টন এল আজকে")
	// Order and cancel as Gujarati and Gurmukhi spell them.
	routedAs(t, r, domain.IntentCancel, "ઓર્ડર કેન્સલ કરો", "ਆਰਡਰ ਰੱਦ ਕਰੋ")
	// A Gujarati order: "maate" is for, "moklo" send.
	routedAs(t, r, domain.IntentOrder, "મહેતા ટ્રેડર્સ માટે 20 કાર્ટન ફિનાઇલ મોકલો")
	// The southern scripts: a catalog name heard by its sound, a yes
	// and a send, "cancel" and "order" as loanwords.
	routedAs(t, r, domain.IntentStock, "ஹார்பிக் ஸ்டாக் இருக்கா?")
	routedAs(t, r, domain.IntentConfirm, "ಓಕೆ ಸರ್, ಕನ್ಫರ್ಮ್", "ಹೌದು, ಸರಿ ಇದೆ, ಕಳುಹಿಸಿ", "சரி, அனுப்புங்க", "ശരി, അയച്ചോളൂ")
	// Telugu's "sare" (all right) alone; Hinglish's "sare" (all) in a
	// question.
	notRoutedAs(t, r, domain.IntentConfirm, "sare pending orders dikhao", "sare orders ka status batao", "sare alarm band karo")
	// Yes in Telugu ("avunu", "అవును", "సరే"), Hindi's "ji" alone, and a
	// yes said to a brother or in Marwari's "sa"; Tamil's and Telugu's
	// "happened" and Bhojpuri's "gail" after a delivery.
	routedAs(t, r, domain.IntentConfirm, "avunu", "అవును", "సరే", "sare", "sare anna", "ji", "seri anna", "ok sa", "haan sa, theek hai",
		"yes please do the needful", "thik ba")
	routedAs(t, r, domain.IntentDelivery, "SK-4104 delivery aachu", "V-4104 delivery ayindi", "rajesh ke maal deliver ho gail",
		"rajesh kirana saamaan poi serndhuchu", "rajesh kirana ki saruku cheri poyindi")
	// Everyone's dues as an Excel file, in Punjabi, Marwari and Kannada.
	routedAs(t, r, domain.IntentOutstanding, "saare customers da baaki excel ch bhej do",
		"saara customers ro baaki excel mein bhejo sa", "ella customers baaki excel alli kalsi")
}

// TestEverydayWordsOfOtherScripts: the common words of Bengali,
// Gurmukhi, Gujarati, Telugu and Tamil read as Hindi's: came (এল,
// આવ્યું, வந்தது), unloaded (নেমেছে), happened (হয়েছে), today, how much,
// which, still, money, sales, give, send and let it be.
func TestEverydayWordsOfOtherScripts(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentStockReceived, "ফিনাইল ৪০ কার্টন নেমেছে, ২টা লিক করছে", "সাবান ৬০ কার্টন এল আজকে")
	routedAs(t, r, domain.IntentOrderStatus, "অর্ডার 6802 ডেলিভারি হয়েছে কি?")
	routedAs(t, r, domain.IntentPendingOrders, "ਕਿਹੜੇ ਆਰਡਰ ਅਜੇ ਪੈਂਡਿੰਗ ਨੇ?", "বাকি অর্ডারগুলোর লিস্ট দাও")
	routedAs(t, r, domain.IntentPaymentsReceived, "இன்று எவ்வளவு பணம் வந்தது?", "આજે કેટલું પેમેન્ટ આવ્યું?")
	routedAs(t, r, domain.IntentReport, "ఈ నెల అమ్మకాలు ఎంత?")
	routedAs(t, r, domain.IntentConfirm, "సరే, పంపించండి")
	routedAs(t, r, domain.IntentCancel, "ના, રહેવા દો")
	routedAs(t, r, domain.IntentDelivery, "ਮਹਿਤਾ ਟ੍ਰੇਡਰਜ਼ ਦਾ ਮਾਲ ਉਤਾਰ ਦਿੱਤਾ")
}

// TestUnitsHeardInOtherScripts: after a count, a unit written in another
// script as said is that unit ("30 ಬಾಕ್ಸ್" is 30 boxes, "2 লিটাৰ" two
// litres), the catalog's own units too; a word of too few consonants to
// tell ("5 बार", five times), or said as no unit, stays as it is.
func TestUnitsHeardInOtherScripts(t *testing.T) {
	lex := mustLexicon(Vocabulary{Products: []domain.Product{{SKU: "PRD", Name: "Servo Pride", Unit: "barrel"}}})
	for text, want := range map[string]string{
		"30 ಬಾಕ್ಸ್": "30 box", "3 ബോക്സ്": "3 box", "2 লিটাৰ": "2l", "5 ডজন": "5 dozen", "30 കാർട്ടൺ": "30 carton",
		"4 പാക്കറ്റ്": "4 pack", "2 বালতি": "2 bucket", "3 बैरल": "3 barrel", "5 बार": "5 baar", "40 कितना": "40 kitna",
	} {
		var got []string
		for _, tk := range lex.normalize(text).Tokens {
			got = append(got, tk.Text)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%q reads %q, want %q", text, strings.Join(got, " "), want)
		}
	}
}

// TestAnOrderInAnotherScriptNamingItsCustomer: an order written in a
// script whose words are read only in part is read when it names its
// customer, its goods and their count; without the customer it is left
// for the LLM, as goods that came are written the same way.
func TestAnOrderInAnotherScriptNamingItsCustomer(t *testing.T) {
	r := routerFor(t, Vocabulary{
		Products:  []domain.Product{{SKU: "SYR2", Name: "Dispovan Syringe 2 ml", Aliases: []string{"syringe", "ಸಿರಿಂಜ್"}, Unit: "box"}},
		Customers: []domain.Customer{{ID: "S02", Name: "Manjunath Medicals", Aliases: []string{"ಮಂಜುನಾಥ", "ಮಂಜುನಾಥ ಮೆಡಿಕಲ್ಸ್"}}},
	})
	d := r.Route(context.Background(), "ಮಂಜುನಾಥ ಮೆಡಿಕಲ್ಸ್ ಗೆ 30 ಬಾಕ್ಸ್ ಸಿರಿಂಜ್ ಕಳಿಸಿ")
	if d.Intent != domain.IntentOrder {
		t.Errorf("an order naming its customer: %s (%s), want order", d.Intent, d.Reason)
	}
	if d := r.Route(context.Background(), "30 ಬಾಕ್ಸ್ ಸಿರಿಂಜ್ ಬಂದಿದೆ"); d.Intent == domain.IntentOrder {
		t.Errorf("goods and a count alone: %s (%s), want no order", d.Intent, d.Reason)
	}
}

// TestANameWithItsCaseEnding: heard against what Munshi asked or
// showed, a name with a case ending glued to it ("বৰুৱালৈ", to Baruah;
// Malayalam's "റെസിഡൻസിക്ക്", to the Residency) is that name; a unit in
// the Hindi or Punjabi plural after a count is the unit.
func TestANameWithItsCaseEnding(t *testing.T) {
	lex := mustLexicon(Vocabulary{Customers: []domain.Customer{
		{ID: "L02", Name: "Baruah Motor Stores", Aliases: []string{"বৰুৱা"}},
		{ID: "P08", Name: "Periyar Residency"},
	}})
	for text, want := range map[string]string{"বৰুৱালৈ 10 টা": "L02", "পেরিয়ার রেসিডেন্সিকে": "", "പെരിയാർ റെസിഡൻസിക്ക്": "P08"} {
		n := lex.hear(text)
		got := ""
		for _, e := range n.Entities {
			if e.Kind == EntityCustomer {
				got = e.ID
			}
		}
		if want != "" && got != want {
			t.Errorf("%q heard %+v, want customer %s", text, n.Entities, want)
		}
	}
	for text, want := range map[string]string{"30 ਬੋਰੀਆਂ": "30 bag", "5 बोरियाँ": "5 bag", "3 बोतलां": "3 bottle"} {
		if got := Normalize(text).Text; got != want {
			t.Errorf("Normalize(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestUrduScript: Urdu's everyday words in its own script read as their
// Hindi, however the keyboard typed the letters (Arabic's yeh, kaf and
// heh, short vowels marked or not); an order, a payment answer and a
// stock question in Urdu.
func TestUrduScript(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ٹھیک", "ٹھیک"},
		{"ٹھيک", "ٹھیک"}, // Arabic yeh
		{"چيك", "چیک"},   // Arabic yeh and kaf
		{"نَقد", "نقد"},  // a short vowel marked
	} {
		if got := splitWords(c.in, nil); len(got) != 1 || got[0].text != c.want {
			t.Errorf("splitWords(%q) = %+v, want %q", c.in, got, c.want)
		}
	}
	if got := Normalize("ٹھیک ہے، نقد").Text; got != "theek hai cash" {
		t.Errorf(`Normalize("ٹھیک ہے، نقد") = %q`, got)
	}
	if n := Normalize("دس ہزار نقد"); len(n.Entities) != 1 || n.Entities[0].Value != 10000 {
		t.Errorf(`Normalize("دس ہزار نقد") = %+v, want 10000`, n.Entities)
	}
	if n := Normalize("15 لیٹر"); len(n.Entities) != 1 || n.Entities[0].Kind != EntitySize || n.Entities[0].ID != "15l" {
		t.Errorf(`Normalize("15 لیٹر") = %+v, want 15 litres`, n.Entities)
	}
	r := demoRouter(t)
	routedAs(t, r, domain.IntentOrder, "20 GC bhejne hain")
	routedAs(t, r, domain.IntentConfirm, "ٹھیک ہے", "جی ہاں")
	routedAs(t, r, domain.IntentStock, "فینائل کا کتنا اسٹاک ہے")
}

// TestCandraE: Marathi writes English's short a with a candra e (बॅग,
// कॅन, कॅश), where Hindi writes ै: the same word.
func TestCandraE(t *testing.T) {
	for in, want := range map[string]string{"10 बॅग": "bag", "12 कॅन": "can"} {
		n := Normalize(in)
		if len(n.Entities) != 2 || n.Entities[1].Kind != EntityUnit || n.Entities[1].ID != want {
			t.Errorf("Normalize(%q) = %+v, want a count of %s", in, n.Entities, want)
		}
	}
	if got := Normalize("कॅश").Text; got != "cash" {
		t.Errorf(`Normalize("कॅश") = %q, want cash`, got)
	}
}

// TestNepaliAndBengaliEverydayWords: how much (kati, कति), which (kun),
// send (pathaidinu), came (aayo, आयो), happened (bhayo, hoyeche), all
// (sob), cash (नगद) and fifteen (पन्ध्र), as Nepali and Bengali writers
// romanise or write them.
func TestNepaliAndBengaliEverydayWords(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentOutstanding, "kun party ko kati udharo baki cha?", "sob party r baki ta excel e pathao")
	routedAs(t, r, domain.IntentStock, "GC ko stock kati cha?")
	routedAs(t, r, domain.IntentPayment, "राजेश किराना बाट पन्ध्र हजार नगद आयो")
	routedAs(t, r, domain.IntentDelivery, "Rajesh ko order deliver bhayo")
	if n := Normalize("100 wota"); len(n.Entities) != 2 || n.Entities[1].ID != "piece" {
		t.Errorf(`Normalize("100 wota") = %+v, want 100 pieces`, n.Entities)
	}
	if got := Normalize("पन्ध्र हजार").Entities; len(got) != 1 || got[0].Value != 15000 {
		t.Errorf(`Normalize("पन्ध्र हजार") = %+v, want 15000`, got)
	}
}

// TestReachedInKashmiriKonkaniAndKannada: goods that reached a customer
// ("waatyov", "pavla", "ತಲುಪಿದೆ") and Tulu's "aand" (it happened) are a
// delivery.
func TestReachedInKashmiriKonkaniAndKannada(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentDelivery, "ORD-1042 hund maal waatyov", "Rajesh Kirana maal pavla", "1042 ಆರ್ಡರ್ ಮಾಲು ತಲುಪಿದೆ",
		"Rajesh kirana maal deliver aand")
	// Reached in Konkani's past ("pavlo", "पावलो") and Kannada's
	// ("talupitu"), Chhattisgarhi's gone ("pahuch ge"), and Tamil's done
	// ("டெலிவரி ஆச்சு").
	routedAs(t, r, domain.IntentDelivery, "ORD-1042 ke maal pahuch ge", "1042 वाला माल पहुँच गे", "1042 चो माल पावलो",
		"rajesh kirana-ak maal pavlo", "rajesh kirana ge maal talupitu", "1042 சரக்கு டெலிவரி ஆச்சு")
}

// TestGujaratiEverydayWords: how much (ketlu), all (badha), of (nu),
// send (mokal), want (joie), the one (valo), pieces (nang) and rupees
// (rupiya), as Kathiawadi writers romanise them.
func TestGujaratiEverydayWords(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentOutstanding, "rajesh nu outstanding ketlu?")
	routedAs(t, r, domain.IntentStock, "GC no stock ketlo?")
	routedAs(t, r, domain.IntentDelivery, "rajesh kirana no maal pochi gyo")
	if n := Normalize("40 nang"); len(n.Entities) != 2 || n.Entities[1].ID != "piece" {
		t.Errorf(`Normalize("40 nang") = %+v, want 40 pieces`, n.Entities)
	}
}

// TestSouthernNumberWords: Telugu's two and three (rendu, moodu) and
// Kannada's three and five (ಮೂರು, ಐದು) count goods.
func TestSouthernNumberWords(t *testing.T) {
	for in, want := range map[string]float64{"rendu box": 2, "moodu box": 3, "ಮೂರು ಬಾಕ್ಸ್": 3, "ಐದು ಬಾಕ್ಸ್": 5} {
		if n := Normalize(in); len(n.Entities) != 2 || n.Entities[0].Value != want || n.Entities[1].ID != "box" {
			t.Errorf("Normalize(%q) = %+v, want %v boxes", in, n.Entities, want)
		}
	}
	// A number word after a count is part of the number, never a unit.
	if n := Normalize("दो लाख पचास हज़ार"); len(n.Entities) != 1 || n.Entities[0].Value != 250000 {
		t.Errorf(`Normalize("दो लाख पचास हज़ार") = %+v, want 250000`, n.Entities)
	}
}

// TestTamilSendAndDid: "ok anupunga" (send it) confirms, "deliver
// pannitom" (we did) is a delivery, and Telugu's "pay chesaru" a payment.
func TestTamilSendAndDid(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentConfirm, "ok anupunga")
	routedAs(t, r, domain.IntentDelivery, "ORD-1042 deliver pannitom")
	// Telugu's did: "pay chesaru", paid.
	routedAs(t, r, domain.IntentPayment, "rajesh kirana twenty five thousand pay chesaru")
}
