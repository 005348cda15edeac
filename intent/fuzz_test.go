package intent

import (
	"context"
	"math"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/domain"
)

// FuzzNormalize checks, for any input, that normalising does not panic and
// that its output keeps its promises:
//   - Text is valid UTF-8, lower-cased, single-spaced, and the tokens joined;
//   - token offsets lie inside the input, in order;
//   - entities are sorted, disjoint token spans whose Text is theirs;
//   - normalising is idempotent: Text normalises to itself, with the same
//     entity kinds.
func FuzzNormalize(f *testing.F) {
	for _, s := range benchMessages {
		f.Add(s)
	}
	f.Add("approve ORDER-2024-0012")
	f.Add("१,२०० पेटी फिनाइल ✅")
	f.Add("ਮਹਿਤਾ ਟ੍ਰੇਡਰਜ਼ ਦਾ ਮਾਲ ਉਤਾਰ ਦਿੱ")
	f.Add("ગ્લાસ ક્લીનર ના ૪૦ કાર્ટન, হঠাৎ ৪৫০০")
	f.Add("ஹார்பிக் ஸ்டாக் ௪௦, ಓಕೆ ಸರ್, ഇതിൽ ൻ ൿ, పంపండి్ ଓଡ଼ିଆ")
	f.Add("t7006 dilivered, x1000, T7 a99999999999")
	f.Add("5 कार्टन जी सी, G.C. aur জিসি, शर्मा जी सी, एसीसीएसीसी")
	demo := demoRouter(f)
	f.Fuzz(func(t *testing.T, in string) {
		checkNormalized(t, in, Normalize(in), Normalize)
		checkNormalized(t, in, demo.Normalize(in), demo.Normalize)
	})
}

func checkNormalized(t *testing.T, in string, n Normalized, normalize func(string) Normalized) {
	t.Helper()
	if !utf8.ValidString(n.Text) {
		t.Fatalf("%q: invalid UTF-8 %q", in, n.Text)
	}
	if strings.HasPrefix(n.Text, " ") || strings.HasSuffix(n.Text, " ") || strings.Contains(n.Text, "  ") {
		t.Fatalf("%q: badly spaced %q", in, n.Text)
	}
	for _, r := range n.Text {
		if unicode.ToLower(r) != r {
			t.Fatalf("%q: upper case in %q", in, n.Text)
		}
	}
	texts := make([]string, len(n.Tokens))
	prev := 0
	for i, tok := range n.Tokens {
		if tok.Text == "" || strings.Contains(tok.Text, " ") {
			t.Fatalf("%q: token %d is %q", in, i, tok.Text)
		}
		if tok.Start < prev || tok.Start > tok.End || tok.End > len(in) {
			t.Fatalf("%q: token %q at [%d,%d) after %d", in, tok.Text, tok.Start, tok.End, prev)
		}
		prev = tok.Start
		texts[i] = tok.Text
	}
	if strings.Join(texts, " ") != n.Text {
		t.Fatalf("%q: tokens %q do not make %q", in, texts, n.Text)
	}
	end := 0
	for _, e := range n.Entities {
		if e.Start < end || e.End <= e.Start || e.End > len(n.Tokens) {
			t.Fatalf("%q: entity %+v overlaps or leaves the tokens", in, e)
		}
		if e.Text != strings.Join(texts[e.Start:e.End], " ") || e.ID == "" {
			t.Fatalf("%q: entity %+v", in, e)
		}
		// A number's sign is in its ID and Value only, never in its text.
		if e.Kind == EntityNumber && (math.Signbit(e.Value) != strings.HasPrefix(e.ID, "-") || strings.TrimPrefix(e.ID, "-") != e.Text) {
			t.Fatalf("%q: number %+v", in, e)
		}
		end = e.End
	}
	again := normalize(n.Text)
	if again.Text != n.Text {
		t.Fatalf("%q: not idempotent: %q → %q", in, n.Text, again.Text)
	}
	if a, b := kinds(n), kinds(again); a != b {
		t.Fatalf("%q: entities change on normalising %q again: %s → %s", in, n.Text, a, b)
	}
}

func kinds(n Normalized) string {
	var b strings.Builder
	for _, e := range n.Entities {
		b.WriteString(string(e.Kind))
		b.WriteByte(' ')
	}
	return b.String()
}

// FuzzRouteEvidence checks, for any input, that a message routed to a
// delivery, a payment or goods received, by whichever tier, carries that
// intent's evidence and is not a question.
func FuzzRouteEvidence(f *testing.F) {
	for _, s := range []string{
		"ORD-1042 delivered, GC 5 carton kam", "1042 deliver ho gaya", "Mehta ne 50,000 diya cheque 123456",
		"received 1.2 lakh from Gupta by NEFT ref UTR991", "Sharma ji 25k UPI", "GC 100 carton aaya",
		"production se 20 carton phenyl ready", "Mehta ne 50000 diya kya", "GC 100 carton aaya?",
		// Regional words of giving, a Gujarati "of", goods at a shop, a
		// goods received note's number.
		"Rajesh Kirana la maal dila", "ઓર્ડર 1042 પહોંચાડી દીધો", "ગુપ્તા સુપરમાર્ટ નો માલ પહોંચાડી દીધો",
		"Patel Provision ma 20 carton GC utari didhu", "GRN-4471 150 ctn recd, rakh diye", "1042 ka maal Rajesh ke hawale",
		// A drop completed, part delivered, a hotel nobody listed, a
		// record read again with an unlisted name after "surely none".
		"Completed drop for ORD1907", "3347 half deliver hua, baaki 5 load nahi hua", "hotel sagar ka order de diya",
		"sir Dua Provision gaya tha, maal de diya, malik bola agli baar pehle phone karna",
		// A payment without its payer, an advance beside its goods, goods
		// made on a shift, a glued order number, the southern scripts.
		"payment aaya 10000", "Krishna Enterprises advance 25,000 diya NEFT se, maal next week jayega",
		"shift 2 ne 1000 bottle lizol bhara, 83 carton", "t7006 dilivered ho gaya sir", "ஹார்பிக் 40 கார்டன் வந்தது",
		// A name of the office's people last, orders ticked off by number.
		"weekly MIS chahiye Vikram sir ko", "sharmaji ko de diya 3342", "1871 aur 1874 dono de diye",
	} {
		f.Add(s)
	}
	// The business's people named, as a served router has them.
	v := demoVocabulary(f)
	v.Staff = []string{"Vikram Singh", "Priya Nair", "Ravi Kumar", "Sunil Yadav"}
	r := routerFor(f, v)
	f.Fuzz(func(t *testing.T, in string) {
		d := r.Route(context.Background(), in)
		shape := shapeOf(d.Normalized, nil)
		if strings.Contains(d.Reason, strangerReason) {
			// Read with the names nobody listed as customers: the
			// evidence is that reading's.
			shape, _ = strangersAsCustomers(shape, nil)
		}
		var evidence bool
		switch d.Intent {
		case domain.IntentDelivery:
			evidence = deliverySignal(shape, d.Normalized)
		case domain.IntentPayment:
			evidence = paymentSignal(shape)
		case domain.IntentStockReceived:
			evidence = receivedSignal(shape)
		default:
			return
		}
		if !evidence || asked(shape, d.Normalized.Question) {
			t.Fatalf("%q → %s (%s, %s) without its evidence: %q", in, d.Intent, d.Tier, d.Reason, shape)
		}
	})
}
