package intent

import (
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestStaffNamedAsksForTheOffice: one of the business's people asked for
// by name, in either script, hands over; a message that only names one
// reads as before, and a word of a customer's name is never a person of
// the office.
func TestStaffNamedAsksForTheOffice(t *testing.T) {
	v := demoVocabulary(t)
	v.Staff = []string{"Vikram Singh", "Priya Nair", "Ravi Kumar", "Sunil Yadav", "Rajesh Gupta"}
	r := routerFor(t, v)
	wantHandoffs(t, r, map[string]string{
		"Vikram sir se baat karni hai City Hospital ke payment terms pe": "asked",
		"Priya madam ka number bhejo":                                    "asked",
		"विक्रम जी को बोलो मुझे फोन करें":                                "asked",
		"Sunil bhai ka number bhej do, wahi humara area dekhte hai":      "asked",
		"Vikram ji ko bolna aaj hi call kar le":                          "asked",
		"Can your sales guy Ravi come to the shop today?":                "asked",
		"Can Sunil visit us tomorrow?":                                   "asked",
	})
	notRoutedAs(t, r, domain.IntentHandoff, "Vikram sir GC ka stock kitna hai", "Rajesh se baat karo",
		"Ravi ka order status kya hai", "Sunil ne 10 carton GC ka order diya", "Ravi came to the shop today",
		"when will Ravi come back from leave?")
	// Without the names, the same asks are not read as the office's.
	plain := demoRouter(t)
	notRoutedAs(t, plain, domain.IntentHandoff, "Sunil bhai ka number bhej do, wahi humara area dekhte hai")
	if got := r.staff.words; got["rajesh"] || got["gupta"] || !got["vikram"] {
		t.Errorf("staff words %v: a customer's name word is no person of the office, a person's own name is", got)
	}
}

// TestStaffedRouterReadsEveryMessage: with the business's people named,
// as a served router has them, every training and development message
// is read without a panic ("weekly MIS chahiye Vikram sir ko" ends on a
// name and its "ko").
func TestStaffedRouterReadsEveryMessage(t *testing.T) {
	v := demoVocabulary(t)
	v.Staff = []string{"Vikram Singh", "Priya Nair", "Ravi Kumar", "Sunil Yadav"}
	r := routerFor(t, v)
	for _, path := range evidenceFiles {
		for _, ex := range readCorpus(t, path) {
			func() {
				defer func() {
					if e := recover(); e != nil {
						t.Errorf("%s:%d: %v", path, ex.Line, e)
					}
				}()
				r.Route(t.Context(), ex.Text)
			}()
		}
	}
	notRoutedAs(t, r, domain.IntentHandoff, "weekly MIS chahiye Vikram sir ko")
}

// TestWordForTheOfficesPeople: word given, told or taken up to one of the
// office's people by name, or the head sent for, hands over at any
// length; word told before is news, and goods beside it order.
func TestWordForTheOfficesPeople(t *testing.T) {
	v := demoVocabulary(t)
	v.Staff = []string{"Vikram Singh", "Priya Nair", "Ravi Kumar", "Sunil Yadav"}
	r := routerFor(t, v)
	wantHandoffs(t, r, map[string]string{
		"Priya madam ko mera msg forward kar dena":                                   "asked",
		"Vikram sir tak baat pahuncha dena ki Mehta ji naye rate se khush nahi hain": "asked",
		"priya madam jode vaat karvi che":                                            "asked",
		"MALIK KO BULAO JALDI":                                                       "asked",
		"haan sir main Sunil bol raha hu aaj Gupta ji ki dukaan pe gaya tha unka kehna hai ki pichla hisaab abhi tak baaki dikha raha hai to boss ko bol do ki ek baar dekh lein": "asked",
	})
	notRoutedAs(t, r, domain.IntentHandoff, "Gupta Supermart ke manager ko message karo ki rate list bhej di")
	var buf [48]string
	if told := "maine owner ko bata diya tha kal hi"; toldTheHead(shapeOf(r.Normalize(told), buf[:0])) {
		t.Errorf("%q read as word for the head: it was told before", told)
	}
	routedAs(t, r, domain.IntentOrder, "Vikram sir ko bolo Rajesh ke liye 5 carton phenyl bhejna hai")
}

// TestSentOverAndOtherAsksForTheOffice: a man, or one of the business's
// people by name, asked to be sent to the shop; anyone asked after at
// the office in English; nobody at the office picking up; the owner
// asked to be met (मिलवाओ); whom to talk to about a bill, misspelt; the
// manager asked for in Tamil; an extra on the bill asked what for; a
// shop's goods come short in Gujarati. Goods fetched from the shop and
// a call nobody picks up at the bank are not the office's.
func TestSentOverAndOtherAsksForTheOffice(t *testing.T) {
	v := demoVocabulary(t)
	v.Staff = []string{"Vikram Singh", "Priya Nair", "Ravi Kumar", "Sunil Yadav"}
	r := routerFor(t, v)
	routedAs(t, r, domain.IntentHandoff, "koi aadmi bhejo dukaan pe", "Ravi bhai ko shop pe bhejo", "is anyone there from accounts?",
		"tried calling your office all day, nobody picks up", "malik se milwao", "सेठ जी से मिलवाओ", "bill me gadbad hai kise se bat karu",
		"மேனேஜர் கிட்ட பேசணும்", "ye extra 500 kis cheez ka hai?", "tamaru maal ochhu aavyu")
	notRoutedAs(t, r, domain.IntentHandoff, "aadmi bhejo shop pe maal lene", "bank me call kiya, nobody picks up")
}

// TestThanksForACallAndOnePersonSent: thanks for a call or a talk that
// took place is a greeting, never an ask; one of the business's people
// sent to the shop in Devanagari ("भेज दो") is asked for.
func TestThanksForACallAndOnePersonSent(t *testing.T) {
	v := demoVocabulary(t)
	v.Staff = []string{"Vikram Singh", "Priya Nair", "Ravi Kumar", "Sunil Yadav"}
	r := routerFor(t, v)
	routedAs(t, r, domain.IntentGreeting, "Ravi bhai ne call kar liya, dhanyavaad", "धन्यवाद, मालिक से बात हो गई")
	routedAs(t, r, domain.IntentHandoff, "रवि को दुकान पर भेज दो, हिसाब करना है")
	notRoutedAs(t, r, domain.IntentGreeting, "thanks, baat ho gayi, ab Rajesh ko 5 carton GC bhejo")
}
