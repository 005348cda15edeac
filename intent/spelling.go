package intent

import (
	"strings"
)

// spellings lists, per canonical word, the ways people type it on WhatsApp.
// Romanised Hindi has no standard spelling ("theek", "thik", "thk"), and
// Devanagari words map to the romanised form so that "ठीक है" and "theek
// hai" look the same to the rules and the model. A canonical form with a
// space expands one typed word into two ("haanji" → "haan ji").
//
// Every canonical form maps to itself, so normalising twice changes nothing.
const spellings = `
ok: ok okay okk oky okey okie oki okies okayy okhay okh kk okaay okya ओके ओक
yes: yes yess yeah yea yep yup yas ys
haan: haan han haa ha hn haaan haanh हां हा hya hyan ہاں
haan ji: haanji hanji haaji haji हांजी
ho gaya: hogaya hogya ayyindi aayiduchu aachu ayindi hogai
hmm: hmm hm hmmm hmmmm
theek: theek thik thek theekh thikk tik teek thick thk thiik ठीक ٹھیک
sahi: sahi shi sahee sahii सही
confirm: confirm confirmed cnfrm confrm confirmd konfirm cnfm confrim conform confirmation कन्फर्म कंफर्म
approve: approve approved aprove approv apprve apprv approval aproved अप्रूव
done: done donee डन
complete: compleat
chalega: chalega chalegaa chlega chalegi chalenge चलेगा
pakka: pakka pkka pucca pakaa पक्का
proceed: proceed procede proced
bilkul: bilkul bilkool bilkl बिल्कुल बिलकुल
cancel: cancel cancle cancl cncl cansel kancel cancelled canceled cancell cancellation cancelation cancil कैंसल कैंसिल कैन्सल कैंसेल केन्सल کینسل منسوخ
reject: reject rejected rjct rejct रिजेक्ट
nahi: nahi nahin nhi nai nahee nahii nhin nahiin naheen nahiiin nahi नहीं नही नहि naikhe कोनी illa نہیں
no: no nope noo nah nop
na: na naa ना
mat: mat मत
rehne: rehne rahne rhne rehene rehnay rehen rehnde रहने रहेवा رہنے
chhodo: chhodo chodo chhod chod chhor choro chhoddo छोड़ो छोडो छोड़
bhejo: bhejo bhejdo bhejdena bhejiye bhejna bhejde bhijwao bhijwa bhijwado bhejwa bhejwado bhejiyega bhejoo bhejo भेजो भेजिए भेजें भेजना भिजवा मोकलो पाठवा pathei pathao pothai anuppunga ayakku ayakkanam पठाइ कळिसि bhejni pampandi mokli bhejne पंपिंचंडि بھیجیے pathaidinu mokal anupunga
bhej: bhej भेज بھیج
bheja: bheja bheje bhejdiya bhejdia भेजा भेजे ayachu pampincharu anuppirukkaanga
karo: karo kro kardo krdo kariye kijiye kijie karde krde kardijiye करो कीजिए करिए करें maadi cheyandi podunga
kar: kar kr कर کر kore kaer
karna: karna करना
karne: karne करने
karni: karni करनी
dedo: dedo dedijiye dedena dijiye dehin दाओ دیجیے
de diya: dedia
dena: dena देना दिओ tharanam kodbeku tharanullathu dihe
de: de दे
dikhao: dikhao dikhaao dikhado dikhaiye dikhana dikha dikhaa dikhau dkhao दिखाओ दिखाइए दिखा
batao: batao btao batado bataiye batana bata btado bataao batayiye bataye batau बताओ बताइए बता बताना
chahiye: chahiye chaiye chahie chahiya chaahiye chahye chaheye chaiya chahiyee chayie chaye chahiyeh chiye चाहिए चाहिये venam venum beku darkar lagibo वेणं दरकार chahi چاہیے joie
keliye: keliye kliye keliya keliyee kelie keliey माटे
liye: liye liya lie liyee lye लिए लिये لیے
sakte: sakte skte sakta sakti sake sakenge sakoge skta skti sakat सकते सकता सकती
kitna: kitna kitnaa ktna kitana kitne kitni ktne ktni kitnee कितना कितने कितनी किंना koto enta evvalavu ethra kiman केते एत्र किमान eshtu entha एंत evlo kitto केतना केटलुं کتنا kootah kati कति कत ketlo ketlu ketla केटला kete kinna किती
hai: hai h he hain hei hae hein hai है हैं aanu ba बा ہے
ho: ho हो
kya: kya kyaa kia ky क्या
kaun: kaun kon kaunsa konsa kaunse konse kaunsi konsi kaun कौन कौनसा कौनसे yaaru aaranu किहडे kun evaru yaaryaaru aarokke
kiska: kiska kiske kiski kisko किसका किसके किसकी
abhi: abhi abi abhii abhee अभी अजे
kuch: kuch कुछ
bahut: bahut बहुत
wo: wo वो
maine: maine मैंने
aaj: aaj aj aaja आज innaikku आजे आजके इऩ्ऱु aaje
kal: kal kl कल ninna ninne innale gotokal
pichle: pichle pichla pichhle pichhla pichli picchle pichhli पिछले पिछला पिछली gato
week: week weak wk weekly hafte hafta hapta hafto saptah हफ्ते हफ्ता सप्ताह vaaram soptahe shoptahe आऴ्च अठवाडियानुं
month: month mnth mahina mahine mahino mahinay mahena महीने महीना माह नेल
year: year yr saal sal साल
sales: sales sale sels salez bikri bikari bikree selling sells सेल सेल्स बिक्री अम्मकालु वेचाण
maal: maal mal माल saaman samaan saman सामान saadhanam saruku सरुकु مال
humne: humne hamne हमने
paise: paise paisa pese paisay paisaa paiso पैसा पैसे पणम duddu
rupees: rupees rupee rupaye rupay rs rupya रुपये रुपए tanka टका टङ्का taka rupiya रूप
udhaar: udhaar udhar udhari udhaari udaar udhaaar उधार appu kadan कटऩ udharo उधारो बाकिते ادھار saala kadam udari
baaki: baaki baki baqi bakaya bakaaya bakiya baaqi bakki बाकी बकाया बाक़ी बकाइआ पाक्कि baqaya baakilu بقایا बांकी
order: order ordr oder odr orda ordar ordeer ऑर्डर आर्डर ऑडर ओर्डर आरडर अर्डार अर्डारटा آرڈر आर्टर अर्डर
orders: orders ordrs oders ordars orderz ऑर्डर्स ऑर्डरों अर्डारगुलो अर्डारगुलोर
stock: stock stok stoc stck stk stocks stokc stoke istock स्टॉक स्टाक स्टोक स्ट्टोक्क ष्टक اسٹاک स्टके
available: available availble avlbl avl availabel avaialble availibility availability avail avlb avaliable uplabdh उपलब्ध
outstanding: outstanding outstandng outstnding outstading ostanding outstandings outstnd आउटस्टैंडिंग
pending: pending pendng pndng pendig pendin pendding पेंडिंग पैंडिंग प्रलंबित
delivered: delivered deliverd delivred dlvd dilivered dlvrd delvered dilevered delvrd dlivered डिलीवर्ड deliverrd delevered
supply: supply suply सप्लाई
supplied: supplied
handover: handover सौंप sonp सुपुर्द
dropped: dropped
utaar: utaar utar utarwa utarwaya utarya utari उतार उतरवा उतरवाए उतारे उतारी utaare ilsidvi utarilu
liya: liya लिया
le: le ले
delivery: delivery dlvry delivry delvery delivary deliveries dilivery डिलीवरी डिलिवरी डिलिव्हरी delvry dilevri dilivry टेलिवरि
deliver: deliver delivr deliwer delivar dlvr dilivar dilever डिलीवर डिलिवर dilevar
report: report rprt riport reprt reports रिपोर्ट
chart: chart chrt charts चार्ट چارٹ
excel: excel xl xls xlsx exel एक्सेल ایکسل
graph: graph graphs graf grafh graff ग्राफ ग्राफ़
trend: trend trends trnd ट्रेंड
sheet: sheet sheets sheeet शीट
spreadsheet: spreadsheet spreadsheets spredsheet
file: file files fyl फाइल फ़ाइल
please: please pls plz plss plzz pleas plese pleaze plx pliz plis plij
thanks: thanks thnx thanx thx thankyou thanku tq ty thnks thank shukriya shukria dhanyavad dhanyawad dhanyvad thankx धन्यवाद शुक्रिया dhanyavaad
bye: byee
hi: hi hii hiii hiiii hy हाय
hello: hello helo hallo hellow hullo hlo hellooo helloo हैलो हेलो हलो
namaste: namaste namastey namasthe namaskar namaskaar namste namastee नमस्ते नमस्कार
pranam: pranam parnam pranaam प्रणाम
good: good gud gd
morning: morning mrng morng mornin mrning
good morning: goodmorning सुप्रभात
evening: evening evng eveng
night: night nite
good night: gn goodnight
bhai: bhai bhaiya bhaiyya bhayya bhaiji bhaijan bhaisaab bhaisahab भाई भैया
ji: ji jee jii जी جی
sir: sir sirr सर
sir ji: sirji
customer: customer cust custmr customr coustomer costumer cstmr कस्टमर ग्राहक
customers: customers custmrs customrs कस्टमर्स ग्राहकों
godown: godown godaam godam gowdown गोदाम
bacha: bacha bachaa bache bachi बचा बचे बची बचल
khatam: khatam khtm khatm khattam khtam ख़त्म खत्म
paid: paid चुकाए
payment: payment paymnt pymt pmt pymnt payement paymt peyment पेमेंट
aur: aur aor aurr और अने au aru mattu ar अर اور आणि
mein: mein mei mein में میں vich
se: se sey से سے
malik: malik मालिक मालक मालिकेर
manager: manager manegar मैनेजर
accounts: accounts acounts
representative: representative प्रतिनिधि
shikayat: shikayat शिकायत
baat: baat बात गल्ल वात कथा bat
fee: fee फीस
kisi: kisi kise
karu: karu kru
aapka: aapka tamaru
kam: kam ochhu
ka: ka का दा کا er nu
ki: ki की
ke: ke के کے
ko: ko को کو
ne: ne ने
is: is इस
wala: wala waala vala wale wali waale waali wla वाला वाले वाली walo والا والے valo valu
jaldi: jaldi jldi jaldee जल्दी
sab: sab sob badha
sabse: sabse sabsey सबसे ettavum sobcheye
zyada: zyada jyada jada jyaada zyaada jiyada ज्यादा jaasti kooduthal زیادہ beshi
hua: hua huwa hui huye hue हुआ हुई हुए हयेछे hoyeche bhayo aand ayyinda aipoyindi kazhinju आयिटुच्चु मुटिञ्चतु pannitten
gaya: gaya gya gayi gyi gye gaye gai गया गई गए gail गइल poyindi poi گیا gyu gyo
jayega: jayega jaega jaayega jaaega jayegi jaegi जाएगा जायेगा
bika: bika biki बिका बिकी
kab: kab kb कब एप्पोतु केबे क्यारे yaavaga
tareekh: tareekh तारीख
how: how
check: check chk
dekhein: dekhein देखें
rate: rate rates रेट
bill: bill बिल
gadbad: गड़बड़ गडबड
store: store स्टोर
stores: stores स्टोर्स
traders: traders ट्रेडर्स ट्रेडरज
medicos: medicos मेडिकोज
medical: medical मेडिकल
provision: provision प्रोविजन
kirana: kirana किराना
rakh: rakh rakhwa रखवा
unloaded: unloaded unload unloading अनलोड
utra: utra utre utri utara उतरा नेमेछे
nikla: nikla nikli निकला
raste: raste रास्ते
thama: thama
hawale: hawale हवाले
sambhalwa: sambhalwa sambhal संभाल
pohochavla: pohochavla पोचवला
jhala: jhala झाली jhali zali
aavyo: aavyo आव्या
diyechi: diyechi दियेछि
milega: milega milegaa milegi मिलेगा
lagao: lagao lagado lgao lagaa लगाओ लगा
likho: likho likhdo likhlo लिखो
hisaab: hisaab hisab hishab hisaap हिसाब
madad: madad madat मदद
help: help halp hlp हेल्प
menu: menu menyu मेनू
aap: aap ap आप
tum: tum tu तुम
kaise: kaise kese kaisa kaisi kse कैसे कैसा
haal: haal hal हाल
dukaan: dukaan dukan dukaan दुकान
party: party partys पार्टी
parties: parties पार्टियों
pahuncha: pahuncha pahucha pahunchi pahunche pohcha pohocha pouncha pahunchaa phuncha पहुंचा पहुंची पहुंचे pahunchaya पहुंचाकर पहुंचवा pahochadi पहोंचाडी पौंछे पहञ्चिगला एत्तिच्चु serndhuchu waatyov pavla तलुपिदे pahuchaya etthi pahuchgaya pavlo पावलो talupitu
pahunch: pahunch pahuch pohoch pohch pohonch pohnch pahonch पहुंच cheri پہنچ pochi
received: received recieved recived rcvd recd recvd receive recieve rcv receved रिसीव प्राप्त
mila: mila mile mili milaa मिला मिले मिली ملے
mil: mil मिल
diya: diya diye dia diyaa gave दिया दिए dile dele thannu koduthu kuduthachu kottaytu ichcharu pottaanga कोटुत्ताङ्क
jama: jama jamaa जमा
collection: collection collections कलेक्शन कालेकशन कलेक्षन कळक्षन् colecsan
vasooli: vasooli vasuli वसूली wasool
aaya: aaya aya aayi ayi aaye aye aai aayaa aagaya came landed आया आई आए आये आइआ एसेछे elo vachayi vandhuchu bandide बंतु aail vachindi aavyu वच्चिंदि एल आव्युं वन्ततु aayo आयो aagya aagyi agaya aali bantu vannu asila वन्नु आसिला वच्चायि वन्तुटुच्चु आला eseche vandhuduchu aavya aile आयले banthu
aa: aa आ
ready: ready redy rdy taiyar tayyar taiyaar tayar तैयार तिआर
status: status staus stetus sttus स्टेटस
quality: quality क्वालिटी
kahan: kahan kahaan kidhar kidr किधर कहां कहाँ kothay कोथाय ekkada enga एङ्के kithe kuthe एल्लि elli evide kouthi एक्कड एविटे
kahan hai: एक्कडुंदि एल्लिदे
ekhon: ekhon एखन
ache: ache आछे
geche: geche गेछे
kar diya: cheythu
mera: mera meri mere mra mre मेरा मेरी मेरे
cheque: cheque chq cheq चेक چیک chek
cash: cash csh nakad nagad naqad rokda rokh नकद कैश क्याश नगदु क्याष nogod kaasu रोक्कम nagadu نقد नगद kesh
wapas: wapis
bhugtan: bhugtan भुगतान
upi: upi यूपीआई यूपीआय
phonepe: phonepe phonepay फोनपे fonpe
gpay: gpay जीपे
paytm: paytm पेटीएम
neft: neft एनईएफटी
rtgs: rtgs आरटीजीएस
txn: txn trxn
production: production prodn प्रोडक्शन
kiya: kiya kiye किया किए garyo pannitom chesaru
chuka: chuka chuki चुका
poora: poora pura पूरा पूरी पूरे
kis: kis kin किन کس
total: total कुल mottham
pe: pe पे
receipts: receipts prapti प्राप्ति
today: today todays
naya: naya naye नया नई
consignment: consignment खेप
hatao: hatao hataao हटाओ
radd: radd rad रद्द
output: output आउटपुट
`

// spellingPhrases join two canonical words into one.
const spellingPhrases = `
bhejo: bhej do|bhej dena|bhej dijiye|bhej de|bhej dijie|bhej dein|bhej den|pathei dia|pothai diok|पठाइ दियक|bhejo aa
bheja: bhej diya|bhej dia|bhej di
karo: kar do|kar dena|kar dijiye|kar de|kar dijie|kar dein|kar den
dedo: de do|de dena|de dijiye|de de|de dijie|de dein
hatao: hata do|hata dena|hata dijiye|hata de|hata dehin
dikhao: dikhao do|dikhao dena|dikhao dijiye|dikhao de
batao: batao do|batao dena|batao dijiye|batao de
keliye: ke liye|k liye|ki liye
thanks: thank you|thank u|thanks you
lagao: lagao do|lagao dena|laga de
likho: likh do|likh lo|likh dena|likh lijiye
aaya: aa gaya|aa chuka
mila: mil gaya|mil chuka
pahuncha: pahunch gaya|pahunch chuka
remove: take out|bad dao|baad dao
packed: pack ho gaya|pack kar diya
gpay: google pay|गूगल पे|g pay|गूगिळ् पे
phonepe: phone pe|फोन पे
handover: hand over
bane: ban gaya
`

// canonicalWords maps a typed word to its canonical word or words.
var canonicalWords = parseSpellings()

// phrasePairs maps two consecutive canonical words to the one they mean.
var phrasePairs = parsePhrases()

func parseSpellings() map[string][]string {
	canonicalWords := map[string][]string{}
	for line := range strings.Lines(spellings) {
		canon, variants, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		words := strings.Fields(canon)
		canonicalWords[canon] = words
		for _, v := range strings.Fields(variants) {
			canonicalWords[foldDevanagari(v)] = words
		}
	}
	return canonicalWords
}

func parsePhrases() map[[2]string]string {
	phrasePairs := map[[2]string]string{}
	for line := range strings.Lines(spellingPhrases) {
		canon, variants, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		for _, v := range strings.Split(variants, "|") {
			f := strings.Fields(v)
			a, b := canonicalOne(f[0]), canonicalOne(f[1])
			phrasePairs[[2]string{a, b}] = strings.TrimSpace(canon)
		}
	}
	return phrasePairs
}

// Spelled is the one word w is typed for ("xl" is "excel", "thik"
// "theek"), or w itself: how a catalog's name word reads in a message.
func Spelled(w string) string {
	return canonicalOne(squeeze(foldDevanagari(strings.ToLower(w))))
}

// canonicalOne is the canonical form of a single word, for building tables.
func canonicalOne(w string) string {
	if c, ok := canonicalWords[w]; ok && len(c) == 1 {
		return c[0]
	}
	return w
}

// squeeze shortens runs of three or more identical ASCII letters to one
// ("haaan" → "han", "okkkk" → "ok"); it returns w itself when there are none.
func squeeze(w string) string {
	run, found := 1, false
	for i := 1; i < len(w); i++ {
		if w[i] == w[i-1] && isASCIILetter(w[i]) {
			run++
			if run >= 3 {
				found = true
				break
			}
		} else {
			run = 1
		}
	}
	if !found {
		return w
	}
	b := make([]byte, 0, len(w))
	for i := 0; i < len(w); {
		j := i + 1
		for j < len(w) && w[j] == w[i] {
			j++
		}
		if j-i >= 3 && isASCIILetter(w[i]) {
			b = append(b, w[i])
		} else {
			b = append(b, w[i:j]...)
		}
		i = j
	}
	return string(b)
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' }

// nuktaBase are the letters under the precomposed nukta letters क़ to य़.
var nuktaBase = [8]rune{'क', 'ख', 'ग', 'ज', 'ड', 'ढ', 'फ', 'य'}

// foldDevanagari removes the spelling differences that do not change a
// Devanagari word: the nukta (ज़ = ज), chandrabindu written as anusvara
// (हाँ = हां), and Marathi's candra e for English's short a written as
// Hindi writes it (बॅग = बैग, कॅन = कैन). It returns w itself when there
// are none.
func foldDevanagari(w string) string {
	if !strings.ContainsAny(w, "\u093C\u0901\u0945\u0958\u0959\u095A\u095B\u095C\u095D\u095E\u095F") {
		return w
	}
	var b strings.Builder
	for _, r := range w {
		switch {
		case r == 0x093C:
			continue
		case r == 0x0901:
			r = 0x0902
		case r == 0x0945:
			r = 0x0948
		case r >= 0x0958 && r <= 0x095F:
			r = nuktaBase[r-0x0958]
		}
		b.WriteRune(r)
	}
	return b.String()
}
