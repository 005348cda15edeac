package intent

import (
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestEverydayRepliesInOtherWords: help, cancellations, confirmations,
// greetings and pending-order lists said in words beyond the rules' first
// lists, and the look-alikes that must stay what they are.
func TestEverydayRepliesInOtherWords(t *testing.T) {
	r := demoRouter(t)
	routesTo(t, r, map[domain.Intent][]string{
		domain.IntentHelp: {"naye customer ka order kaise punch karu yahan", "stock dekhne ka tarika kya hai",
			"what all can I ask here?", "बकाया कैसे देखें किसी पार्टी का?"},
		domain.IntentCancel: {"cancel karo bhai, quantity galat daal di", "mat bhejo, party ne mana kiya",
			"no wait, dont place it"},
		domain.IntentConfirm:       {"bilkul sahi, submit"},
		domain.IntentGreeting:      {"happy diwali to the whole team", "eid mubarak"},
		domain.IntentPendingOrders: {"approval me kitne order atke hain", "how many orders are pending"},
	})
	for text, not := range map[string]domain.Intent{
		"stock kaisa hai aaj":                  domain.IntentHelp,
		"how much stock of GC do we have":      domain.IntentHelp,
		"why was ORD-6417 cancelled":           domain.IntentCancel,
		"ORD-5077 rejected kyu dikha raha hai": domain.IntentCancel,
		"cab cancel karo":                      domain.IntentCancel,
		"movie ticket cancel karna hai":        domain.IntentCancel,
		"cancel mat karo, bhej do":             domain.IntentCancel,
		"gym membership cancel karna hai":      domain.IntentCancel,
		"please saare alarms cancel kardo":     domain.IntentCancel,
	} {
		if d := r.Route(t.Context(), text); d.Intent == not {
			t.Errorf("Route(%q) = %s (%s)", text, d.Intent, d.Reason)
		}
	}
}

// TestReplyWords: a word is one replies are made of when two training
// replies hold it, or when one does and no other training message: a
// word one reply happened to hold beside others' words is not.
func TestReplyWords(t *testing.T) {
	lex := mustLexicon(Vocabulary{})
	exs := []Example{
		{Text: "haan bhejo", Intent: domain.IntentConfirm},
		{Text: "haan theek", Intent: domain.IntentConfirm},
		{Text: "sari kalsi", Intent: domain.IntentConfirm},
		{Text: "ok lekin rate", Intent: domain.IntentConfirm},
		{Text: "rate kya hai", Intent: domain.IntentStock},
	}
	c := prepare(exs, lex)
	for w, want := range map[string]bool{"haan": true, "sari": true, "kalsi": true, "bhejo": true, "rate": false} {
		if c.replies[w] != want {
			t.Errorf("replies[%q] = %v, want %v", w, c.replies[w], want)
		}
	}
}

// TestRepliesWithParticles: "umm", "accha" and their like carry no
// meaning of their own in a reply, nor do words of the draft it answers;
// a question after them is still none.
func TestRepliesWithParticles(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentConfirm, "umm theek hai, daal do", "accha theek hai, bhej do", "sab items sahi hai, confirm karo",
		"rate theek hai, bhej do")
	routedAs(t, r, domain.IntentCancel, "galti se daal diya, cancel karo")
	notRoutedAs(t, r, domain.IntentConfirm, "umm ok lekin GC ka rate kya hai")
	// Making out the bill is placing the order.
	routedAs(t, r, domain.IntentConfirm, "han sahi h bill bana do")
	notRoutedAs(t, r, domain.IntentConfirm, "bill bana do")
}

// TestConfirmationsInOtherLanguages: an order placed, or confirming
// done, in Marathi, Gujarati, Bengali and the southern languages; asked
// about, it is no confirmation.
func TestConfirmationsInOtherLanguages(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentConfirm, "theek aahe, order dya", "ok da, order podu", "sari, order pettu",
		"aaytu, order haaki", "ok chetta, confirm cheytho", "sari ide, confirm maadi", "thik ache, confirm koro",
		"ok, confirm kr", "barabar, chalse")
	notRoutedAs(t, r, domain.IntentConfirm, "ORD-1042 confirm kr diya kya", "ok da, GC stock ketla che?")
	// Marathi's send, Bengali's yes, and the words people add: "through",
	// "right", "ji", Punjabi's "paa do", "wahi quantity".
	routedAs(t, r, domain.IntentConfirm, "हो, ऑर्डर बरोबर आहे, पाठवा", "hya, confirm koro", "looks right, ok, send it through",
		"ok ji, order paa do", "haan wahi quantity, confirm karo", "barabar che, muki do")
	notRoutedAs(t, r, domain.IntentConfirm, "ok ji, GC ka stock batao", "haan wahi quantity cancel karo", "do not confirm")
	// Yes in Marathi and Gujarati ("hau"), Kannada ("houdu"), Konkani
	// ("hoy"), Tulu ("andu"), Kashmiri ("aa") and Nagpuri ("ho ja").
	routedAs(t, r, domain.IntentConfirm, "hau barabar", "houdu", "hoy", "andu", "aa", "aa theek", "ho ja")
	notRoutedAs(t, r, domain.IntentConfirm, "aa gaya", "maal aa gaya kya", "ho jayega kya")
	// Yes in Tamil ("aamaa", "ஆமா"), Konkani ("vhoi", "व्हय", "bore",
	// "बरें"), Chhattisgarhi ("hav", "हव") and Gujarati ("haru"); "bore"
	// only alone.
	routedAs(t, r, domain.IntentConfirm, "aamaa", "ஆமா", "vhoi", "व्हय", "bore", "बरें", "hav", "हव", "haru")
	notRoutedAs(t, r, domain.IntentConfirm, "bore ho gaya", "bahut bore kar raha hai")
}

// TestRepliesToADraftAsPeopleSayThem: a yes with who is spoken to or a
// hurry ("ok bhai laga do order", "ha ok jaldi karo"), a cancel told
// for later ("cancel kar do, baad me bataunga"), Marathi's "nako",
// Bengali's "batil", an order stopped, and thanks after an ok in
// Bengali, Gujarati, Tamil and Telugu's "andi". "कुछ नहीं" alone and a
// shop closed are no cancel; a call put through is no yes.
func TestRepliesToADraftAsPeopleSayThem(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentConfirm, "haan bhai laga do", "ok ji order lagao", "ha theek hai jaldi karo", "હા બરાબર છે મોકલો")
	routedAs(t, r, domain.IntentCancel, "abhi cancel karo, baad me bolunga", "poora order hata do", "ye order band karo",
		"नको पाठवू", "বাতিল করো", "kuch nahi, chhodo")
	routedAs(t, r, domain.IntentGreeting, "achha ok, thanks", "ok andi thanks", "આભાર", "onek dhonnobad", "நன்றி சார்")
	notRoutedAs(t, r, domain.IntentCancel, "कुछ नहीं", "dukaan band karo", "order band kar diya unhone")
	notRoutedAs(t, r, domain.IntentConfirm, "haan bhai call laga do", "ok alarm laga do")
}
