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

// TestRegionalDispute: a bill, a rate or the goods said to be wrong,
// spoilt goods asked to be taken back or exchanged, and money paid that
// the ledger does not show, in the regional languages, hand over; a draft
// corrected, goods already sent back and a ledger asked for do not.
func TestRegionalDispute(t *testing.T) {
	r := demoRouter(t)
	wantHandoffs(t, r, map[string]string{
		"बिलात फिनाइलचा दर ६५ ऐवजी ७२ लावलाय, हे चुकीचं आहे":                                   "dispute",
		"Harpic chya jagi lizol pathavla, chukicha maal aalay":                                 "dispute",
		"Aa rate khoto che bhai, GC 92 nu hatu ne tame 98 lagavyu":                             "dispute",
		"বিলে দাম ভুল আছে, হ্যান্ডওয়াশ ৭০ টাকার জায়গায় ৮০ ধরা হয়েছে":                       "dispute",
		"naa balance tappu ga chupistondi, nenu already 15000 kattanu":                         "dispute",
		"ડીશવોશની બોટલો લીક થઈને આવી છે, પાછી લઈ જાવ":                                          "dispute",
		"Surf na packet faatela nikla, badli aapo":                                             "dispute",
		"வந்த சோப் எல்லாம் எக்ஸ்பயரி ஆகிடுச்சு, மாத்தி குடுங்க":                                "dispute",
		"परवा ₹२०,००० UPI ने भरले, पण लेजरमध्ये अजून दिसत नाहीत":                               "dispute",
		"ગયા મહિને ચેક આપ્યો હતો, એ હજુ ખાતામાં જમા નથી બતાવતા":                                "dispute",
		"Ami 30 hajar cash diyechilam Sunil babu ke, ledger e nei keno?":                       "dispute",
		"naan kudutha 25000 cheque entry aagala, konjam paarunga":                              "dispute",
		"We paid your delivery man 4200 cash, no receipt given and it is not in the statement": "dispute",
		"mera 5000 ka cheque khate me nahi hai":                                                "dispute",
	})
	notRoutedAs(t, r, domain.IntentHandoff,
		"हा ड्राफ्ट डिलीट करा, चुकीचा माल टाकला",
		"टूटे हुए 4 कार्टन ग्लास क्लीनर कंपनी को वापस भेज दिए",
		"अशोक प्रोविज़न से 2 बैग सर्फ वापस आए, पैकेट फटे थे",
		"bill bhejna bhul gaya, kal bhej dunga",
		"लेजरमध्ये आज नोंद झाली",
		"ledger bhejo Sharma ji ka",
	)
}

// TestRegionalStemsHaveADevelopmentMessage: every word start the regional
// readings match begins a word of a training or development message, as
// every whole word of the rules must occur in one.
func TestRegionalStemsHaveADevelopmentMessage(t *testing.T) {
	ev := readEvidence(t)
	for _, stem := range slices.Concat(regionalWho.starts, regionalAsk.starts, regionalWrong.starts, regionalOnBill.starts, regionalBack.starts,
		regionalSpoilt.starts, regionalLedger.starts, regionalNot.starts) {
		begins := func(w string) bool { return strings.HasPrefix(w, stem) }
		if !slices.ContainsFunc(slices.Collect(mapKeys(ev.canonical)), begins) && !slices.ContainsFunc(slices.Collect(mapKeys(ev.raw)), begins) {
			t.Errorf("no training or development word begins with %q", stem)
		}
	}
	ends := func(w string) bool { return strings.Contains(w, regionalNotEnd) }
	if !slices.ContainsFunc(slices.Collect(mapKeys(ev.canonical)), ends) {
		t.Errorf("no training or development word holds %q", regionalNotEnd)
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

// TestRegionalWhereIsMyOrder: "where is my order" in Telugu, Bengali,
// Tamil, Punjabi and Marathi, romanised and in their scripts, asks the
// order's status; a friend asked where he is, an order asked where to
// place, and a party asked about do not.
func TestRegionalWhereIsMyOrder(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentOrderStatus,
		"naa order ekkada undi?",
		"నా ఆర్డర్ ఎక్కడుంది?",
		"amar order ta kothay?",
		"আমার অর্ডারটা এখন কোথায় আছে?",
		"en order ippo enga irukku?",
		"order kithe aa?",
		"ORD-1390 kuthe aahe?",
		"ORD-3970 எங்கே இருக்கு?",
	)
	notRoutedAs(t, r, domain.IntentOrderStatus, "paaji kithe ho, phone kyon nahi chakk rahe", "order kahan dena hai",
		"oye kal di party kithe aa? sab aa rahe ne?", "kuthe aahes re?")
}

// TestRegionalDuesAndReplies: dues asked in Tamil, and a yes or a no
// with Punjabi's "ਦਿਓ" (give, as "dena"), read as their intents.
func TestRegionalDuesAndReplies(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentOutstanding, "நான் எவ்வளவு பாக்கி கட்டணும்?")
	routedAs(t, r, domain.IntentConfirm, "ਹਾਂ ਕਰ ਦਿਓ ਪੱਕਾ", "ਹਾਂ ਜੀ ਠੀਕ ਹੈ, ਭੇਜ ਦਿਓ")
	routedAs(t, r, domain.IntentCancel, "ਨਹੀਂ ਜੀ, ਕੈਂਸਲ ਕਰ ਦਿਓ")
}

// TestTheOfficeAskedForInMoreScripts: the owner, the office or one of the
// office's people asked for in Odia, Tamil, Telugu, Malayalam, Gujarati
// and Urdu's script; Hindi's "baat" asks for nobody without a regional
// word for who.
func TestTheOfficeAskedForInMoreScripts(t *testing.T) {
	r := demoRouter(t)
	wantHandoffs(t, r, map[string]string{
		"ମାଲିକଙ୍କ ସହ କଥା ହେବ":                 "asked",
		"ஓனர் கிட்ட பேசணும் அவசரம்":           "asked",
		"ఆఫీస్ నుండి ఫోన్ చేయండి ప్లీజ్":      "asked",
		"ഓഫീസിൽ നിന്ന് ഒന്ന് വിളിക്കണം":       "asked",
		"മുതലാളിയോട് സംസാരിക്കണം, അത്യാവശ്യം": "asked",
		"શેઠ સાથે વાત કરવી છે આજે":            "asked",
		"مالک سے بات کرنی ہے":                 "asked",
		"دفتر کا نمبر دیں":                    "asked",
	})
	notRoutedAs(t, r, domain.IntentHandoff, "bhai ek baat batao, Ashok Provision ka order nikla ki nahi",
		"parso Mehta Traders ke munim se milna hai, hisaab ki baat karni hai")
}

// TestMarathiAndGujaratiCaseEndings: a product or a customer with
// Marathi's or Gujarati's case ending glued on is still read by its name
// ("फिनाइलचे", "सिटी हॉस्पिटलचा"); goods said to have come broken, with
// a name heard that way, are no order.
func TestMarathiAndGujaratiCaseEndings(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentStockReceived, "गोडाऊनमध्ये फिनाइलचे 60 कार्टन आले")
	notRoutedAs(t, r, domain.IntentOrder, "परवा आलेल्या मालात फिनाइलचे ३ बॉक्स फुटलेले होते, बदलून द्या")
}
