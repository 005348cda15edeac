package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/gemini/geminitest"
)

// smokeDir holds dialogs of what Munshi does today, with their seed.
var smokeDir = filepath.Join("..", "..", "internal", "dialogs", "testdata", "smoke")

// dialogReport is the part of `eval --dialogs --json` the tests read.
type dialogReport struct {
	Total        int      `json:"total"`
	Succeeded    int      `json:"succeeded"`
	Percent      float64  `json:"success_pct"`
	MeanTurns    float64  `json:"mean_turns_to_success"`
	WrongEntries int      `json:"wrong_entries"`
	Messages     int      `json:"messages"`
	LLMCalls     int      `json:"llm_calls"`
	LLMPer100    *float64 `json:"llm_calls_per_100_messages"`
	Results      []struct {
		ID             string `json:"id"`
		Kind           string `json:"kind"`
		Succeeded      bool   `json:"succeeded"`
		TurnsToSuccess int    `json:"turns_to_success"`
		WrongEntry     bool   `json:"wrong_entry"`
	} `json:"results"`
	Failures []struct {
		ID       string `json:"id"`
		Expected string `json:"expected"`
		Found    string `json:"found"`
		Turns    []struct {
			Said, Reply string
		} `json:"turns"`
	} `json:"failures"`
}

func evalJSON(t *testing.T, env map[string]string, args ...string) dialogReport {
	t.Helper()
	out, errOut, err := cli(t, env, "", append([]string{"eval"}, append(args, "--json")...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var r dialogReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return r
}

// Outside settings must not reach a scripted conversation: nothing is
// sent, no Redis is used, the minimum order is the default.
var hostileEnv = map[string]string{
	"TWILIO_ACCOUNT_SID": "AC00000000000000000000000000000000", "TWILIO_AUTH_TOKEN": "0123456789abcdef", "TWILIO_WHATSAPP_FROM": "+14155238886",
	"TWILIO_API_URL": "http://127.0.0.1:1", "REDIS_URL": "redis://127.0.0.1:1/0", "SMTP_URL": "smtp://127.0.0.1:1",
	"MUNSHI_MIN_ORDER": "1", "MUNSHI_DB": "/nonexistent/dir/munshi.db",
}

func TestDialogSmoke(t *testing.T) {
	file := filepath.Join(smokeDir, "dialogs.jsonl")
	out, errOut, err := cli(t, hostileEnv, "", "eval", "--dialogs", file)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	for _, want := range []string{"success:          4/4 (100.0%)", "turns to success: 1.25 mean", "wrong entries:    0",
		"LLM calls:        0.0 per 100 messages (0 calls, 6 messages)"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "FAIL") {
		t.Errorf("a smoke dialog failed:\n%s", out)
	}
	r := evalJSON(t, hostileEnv, "--dialogs", file)
	if r.Total != 4 || r.Succeeded != 4 || r.WrongEntries != 0 || r.Messages != 6 || r.LLMPer100 == nil || *r.LLMPer100 != 0 {
		t.Fatalf("%+v", r)
	}
	turns := map[string]int{}
	for _, res := range r.Results {
		turns[res.ID] = res.TurnsToSuccess
	}
	if turns["order-ok"] != 2 || turns["order-cancel"] != 1 || turns["hello"] != 1 || turns["owner-stock"] != 1 {
		t.Fatalf("turns to success: %v", turns)
	}
}

func TestDialogLifecycle(t *testing.T) {
	r := evalJSON(t, nil, "--dialogs", filepath.Join(smokeDir, "lifecycle.jsonl"))
	if r.Total != 4 || r.Succeeded != 4 || r.WrongEntries != 0 {
		t.Fatalf("%+v", r)
	}
}

func TestDialogFailuresAreScored(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "d.jsonl")
	os.WriteFile(file, []byte(strings.Join([]string{
		`{"id":"wrong-qty","as":"sales","turns":["10 carton GC for Rajesh, cash","ok"],"expect":{"order":{"customer":"C01","payment":"cod","items":[{"sku":"GC500","qty":120}]}}}`,
		`{"id":"no-order","as":"sales","turns":["hello"],"expect":{"order":{"customer":"C01","payment":"cod","items":[{"sku":"GC500","qty":120}]}}}`,
		`{"id":"stranger","as":"+919812345678","turns":["10 carton GC for Rajesh, cash","ok"],"expect":{"nothing":true}}`,
		`{"id":"reply-lacks","as":"owner","turns":["GC ka stock kitna hai"],"expect":{"reply":{"contains":["9999 bottles"]}}}`,
	}, "\n")), 0o600)
	r := evalJSON(t, nil, "--dialogs", file, "--seed", smokeDir)
	if r.Total != 4 || r.Succeeded != 1 || r.WrongEntries != 1 || len(r.Failures) != 3 {
		t.Fatalf("%+v", r)
	}
	wrong := map[string]bool{}
	for _, res := range r.Results {
		wrong[res.ID] = res.WrongEntry
	}
	if !wrong["wrong-qty"] || wrong["no-order"] || wrong["reply-lacks"] {
		t.Fatalf("wrong entries: %v", wrong)
	}
	f := r.Failures[0]
	if f.ID != "wrong-qty" || !strings.Contains(f.Expected, "GC500 × 120") || !strings.Contains(f.Found, "GC500 × 240") ||
		len(f.Turns) != 2 || !strings.Contains(f.Turns[1].Reply, "ORD-") {
		t.Fatalf("%+v", f)
	}
	if !strings.Contains(r.Failures[2].Found, `lacks "9999 bottles"`) {
		t.Fatalf("%+v", r.Failures[2])
	}
}

func TestDialogDemoSeed(t *testing.T) {
	// Without catalog.csv beside the file, the demo's catalog, customers
	// and users are the seed.
	dir := t.TempDir()
	file := filepath.Join(dir, "d.jsonl")
	os.WriteFile(file, []byte(`{"id":"gupta","as":"+919900000003","turns":["10 carton GC for Gupta Brothers, credit","ok"],`+
		`"expect":{"order":{"customer":"C09","payment":"credit","items":[{"sku":"GC500","qty":240}]}}}`+"\n"), 0o600)
	r := evalJSON(t, nil, "--dialogs", file)
	if r.Total != 1 || r.Succeeded != 1 {
		t.Fatalf("%+v", r)
	}
}

func TestDialogRefusals(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o600)
		return p
	}
	huge := filepath.Join(dir, "huge.jsonl")
	if f, err := os.Create(huge); err == nil {
		f.Truncate(16<<20 + 1) // sparse
		f.Close()
	}
	good := `{"id":"a","as":"sales","turns":["hi"],"expect":{"nothing":true}}` + "\n"
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"bad line", []string{"--dialogs", write("bad.jsonl", good+`{"id":"b","as":"sales","turns":[],"expect":{"nothing":true}}`)}, `line 2: dialog "b": no "turns"`},
		{"unknown kind", []string{"--dialogs", write("kind.jsonl", `{"id":"b","as":"sales","turns":["x"],"expect":{"refund":1}}`)}, `line 1: dialog "b": unknown expect kind "refund"`},
		{"huge file", []string{"--dialogs", huge}, "larger than 16 MiB"},
		{"binary file", []string{"--dialogs", write("bin.jsonl", "\x00\xff\xfe{{\n")}, "line 1: not valid UTF-8"},
		{"empty file", []string{"--dialogs", write("empty.jsonl", "# nothing\n")}, "has no dialogs"},
		{"missing file", []string{"--dialogs", filepath.Join(dir, "none.jsonl")}, "none.jsonl"},
		{"not in the seed", []string{"--dialogs", write("seed.jsonl", `{"id":"c","as":"sales","turns":["x"],"expect":{"order":{"customer":"C99","payment":"cod","items":[{"sku":"XX1","qty":1}]}}}`), "--seed", smokeDir},
			"customer C99 is not in customers.csv"},
		{"no such role", []string{"--dialogs", write("role.jsonl", `{"id":"o","as":"owner","turns":["hi"],"expect":{"nothing":true}}`), "--seed", filepath.Join(dir, "sales-only")},
			`line 1: dialog "o": no user has the role owner in users.csv`},
		{"seed is a file", []string{"--dialogs", write("file.jsonl", good), "--seed", write("plain", "")}, "plain is not a directory"},
		{"seed without users", []string{"--dialogs", write("partial/d.jsonl", good)}, "has no customers.csv or users.csv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "no such role" {
				os.MkdirAll(filepath.Join(dir, "sales-only"), 0o700)
				for _, f := range []string{"catalog.csv", "customers.csv"} {
					data, _ := os.ReadFile(filepath.Join(smokeDir, f))
					write("sales-only/"+f, string(data))
				}
				write("sales-only/users.csv", "phone,name,role\n+919900000003,Ravi Kumar,sales\n")
			}
			if tc.name == "seed without users" {
				os.MkdirAll(filepath.Join(dir, "partial"), 0o700)
				write("partial/d.jsonl", good)
				data, _ := os.ReadFile(filepath.Join(smokeDir, "catalog.csv"))
				write("partial/catalog.csv", string(data))
			}
			_, _, err := cli(t, nil, "", append([]string{"eval"}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
	for _, args := range [][]string{{"eval", "--json", "x.jsonl"}, {"eval", "--seed", dir, "x.jsonl"}, {"eval", "--dialogs", "x.jsonl", "extra"}} {
		if _, _, err := cli(t, nil, "", args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v", args, err)
		}
	}
}

func TestDialogCountsLLMCalls(t *testing.T) {
	g := geminitest.Start(t, helpAfter(0))
	dir := t.TempDir()
	file := filepath.Join(dir, "d.jsonl")
	os.WriteFile(file, []byte(`{"id":"llm","as":"sales","turns":["`+needsLLM+`","GC ka stock kitna hai?"],"expect":{"nothing":true}}`+"\n"), 0o600)
	env := map[string]string{"GEMINI_API_KEY": geminitest.APIKey, "GEMINI_MODEL": geminitest.Model, "GEMINI_BASE_URL": g.URL}
	r := evalJSON(t, env, "--dialogs", file)
	if r.Succeeded != 1 || r.Messages != 2 || r.LLMCalls != g.Hits() || g.Hits() < 1 || r.LLMPer100 == nil || *r.LLMPer100 != 50*float64(g.Hits()) {
		t.Fatalf("%d hits: %+v", g.Hits(), r)
	}
}

// unfinishedDialogs are the development conversations Munshi does not
// yet end as meant, and why; every other one must. One that comes to end
// as meant leaves this list.
var unfinishedDialogs = map[string]string{
	"fd-order-03": customerWord,
	"fd-prod-06":  unreadScript,
	"pk-order-03": unreadScript,
	"pk-prod-07":  unreadScript,
	"pk-fix-03":   unreadScript,
	"pk-fix-11":   changeWhileAsked,
	"pk-stock-02": unknownWord,
	"pk-file-01":  unknownWord,
	"pk-acct-05":  amountInWords,
	"pk-acct-07":  unreadScript,
	"lb-order-04": unreadScript,
	"lb-cust-05":  unreadScript,
	"lb-acct-07":  unreadScript,
	"lb-deliv-02": unreadScript,
	"sg-order-03": unreadScript,
	"sg-order-08": unreadScript,
	"cm-order-03": devanagariName,
	"cm-two-02":   unreadScript,
	"cm-two-03":   unknownWord,
	"gr-order-07": "a katta, where rice comes by the bori of 50 kg and the bag of 25 kg, may be either: it is asked about",
	// The footwear, cosmetics, spices, tiles, mobile, bakery and
	// kitchenware sets: what each of their unfinished conversations
	// says that Munshi does not yet read.
	"ft-order-05":      unreadScript,
	"ft-order-06":      unreadScript,
	"ft-ask-pay-03":    greetingName,
	"cs-order-09":      farTypo,
	"cs-fix-qty-01":    unknownCorrection,
	"sp-order-03":      devanagariName,
	"mb-order-04":      devanagariName,
	"mb-order-07":      bareModel,
	"mb-cust-01":       unknownWord,
	"mb-cust-03":       bareModel,
	"mb-prod-06":       bareModel,
	"mb-fix-remove-02": unknownCorrection,
	"mb-follow-02":     looseFollowUp,
	"bk-order-07":      unreadScript,
	"kw-order-03":      devanagariName,
	"kw-order-04":      unreadScript,
	"kw-cust-02":       customerWord,
	"kw-cust-05":       unreadScript,
	"kw-pay-01":        customerWord,
	"kw-fix-qty-02":    unknownCorrection,
	"kw-fix-remove-01": unknownCorrection,
	"kw-file-03":       allDues,
	"kw-acct-04":       unknownWord,
	"bt-order-02":      unreadScript,
	"pm-order-03":      unreadScript,
	"pm-cust-03":       unreadScript,
	"pm-prod-01":       unreadScript,
	"pm-prod-04":       nameWordTwice,
	"pm-pay-04":        unreadScript,
	"pm-file-03":       unknownWord,
	"ty-order-03":      unreadScript,
	"ty-qty-03":        unreadScript,
	"ty-two-04":        unitNarrows,
	"ty-stock-03":      unreadScript,
	"ty-total-01":      allDues,
	"df-fix-remove-02": unreadScript,
	"ck-order-03":      saidSize,
	"ck-dues-03":       looseFollowUp,
	"ay-acct-05":       placeAnswer,
	// The hotel supplies, bearings, coffee, heaters, plywood and
	// hosiery sets.
	"br-order-01": unitWord,
	"br-prod-03":  numberNamed,
	"br-prod-04":  numberNamed,
	"br-prod-05":  numberNamed,
	"br-prod-06":  numberNamed,
	"br-two-01":   numberNamed,
	"br-two-04":   numberNamed,
	"br-qty-01":   unknownWord,
	"br-qty-03":   unknownWord,
	"br-file-02":  unknownWord,
	"br-deliv-04": greetingName,
	"br-deliv-05": placeAnswer,
	"cf-prod-05":  unreadScript,
	"cf-fix-02":   unknownCorrection,
	"cf-dues-02":  unknownWord,
	"cf-acct-07":  unknownWord,
	"ht-cust-03":  saidSize,
	"ht-pay-03":   unreadScript,
	"ht-dues-03":  placeAnswer,
	"pw-order-08": saidSize,
	"hs-dues-03":  numberWordName,
	"hs-acct-04":  numberWordName,
	"hs-acct-02":  caseWord,
	"hs-stock-02": looseFollowUp,
	"hs-deliv-02": unknownWord,
	// The pooja goods, eggs, aluminium, tools, frozen foods and sweets
	// sets.
	"pj-fix-cust-02": changeWhileAsked,
	"eg-order-07":    shortTypo,
	"eg-cust-05":     unreadScript,
	"eg-file-01":     unknownWord,
	"eg-acct-07":     unreadScript,
	"al-order-07":    farTypo,
	"tk-order-03":    unreadScript,
	"tk-order-05":    saidSize,
	"tk-prod-06":     numberNamed,
	"fz-prod-05":     countAfterName,
	"sw-order-03":    unknownWord,
	"sw-cust-05":     unknownWord,
	// The sanitaryware, toys and gifts, edible oil and lights and fans
	// sets.
	"sn-acct-05":       unknownWord,
	"sn-deliv-02":      unknownWord,
	"sn-deliv-05":      unknownWord,
	"sn-prod-06":       unknownWord,
	"sn-top-01":        unknownWord,
	"gf-acct-05":       unknownWord,
	"gf-acct-07":       unreadScript,
	"gf-cust-01":       unknownWord,
	"gf-cust-03":       unknownWord,
	"gf-deliv-04":      unknownWord,
	"gf-fix-qty-02":    unknownCorrection,
	"gf-fix-qty-03":    unreadScript,
	"gf-order-01":      unknownWord,
	"gf-top-01":        unknownWord,
	"eo-acct-04":       undiagnosed,
	"eo-cust-05":       devanagariName,
	"eo-order-02":      undiagnosed,
	"eo-order-07":      undiagnosed,
	"eo-qty-03":        unknownWord,
	"eo-two-01":        unknownWord,
	"lf-acct-02":       undiagnosed,
	"lf-cust-02":       undiagnosed,
	"lf-cust-03":       unknownWord,
	"lf-cust-05":       unreadScript,
	"lf-deliv-02":      unreadScript,
	"lf-deliv-04":      undiagnosed,
	"lf-deliv-05":      unknownWord,
	"lf-dues-01":       looseFollowUp,
	"lf-file-03":       undiagnosed,
	"lf-fix-add-02":    unknownWord,
	"lf-fix-pay-01":    unknownCorrection,
	"lf-fix-qty-03":    unreadScript,
	"lf-fix-remove-02": unknownCorrection,
	"lf-order-02":      undiagnosed,
	"lf-order-03":      unreadScript,
	"lf-order-04":      undiagnosed,
	"lf-order-05":      unknownWord,
	"lf-order-06":      undiagnosed,
	"lf-order-07":      undiagnosed,
	"lf-order-08":      undiagnosed,
	"lf-qty-03":        unreadScript,
	"lf-stock-02":      unknownWord,
	"lf-stock-04":      looseFollowUp,
	"lf-top-01":        unknownWord,
	"lf-two-01":        unknownWord,
}

// Why a conversation of the newer sets is unfinished.
const (
	unreadScript      = "an order or reply in a script read only in part (Gurmukhi, Urdu, Bengali, Assamese, Odia, Telugu, Tamil, Kannada, Malayalam, Gujarati): its trade words are unknown"
	devanagariName    = "a name or a pack in Devanagari that the catalog writes only in Latin letters"
	farTypo           = "a product misspelt beyond the one typo a name allows"
	unknownWord       = "a word of another language that no development message has yet"
	greetingName      = "a customer named with greeting words (Shri Ram) beside an order or a delivery is read as neither"
	unknownCorrection = "a correction in words the correction reader does not know"
	looseFollowUp     = "a follow-up naming a customer by a word of their name, or one size among several, is not tied to the last answer"
	allDues           = "every customer's dues asked in words no rule knows"
	bareModel         = "a phone model said without its brand, or with the brand after it, beside a shared name"
	amountInWords     = "an amount in English words, or its payer in Gujarati"
	customerWord      = "a product word that is also a word of a customer's name"
	changeWhileAsked  = "a change of customer sent while a question about the goods waits"
	saidSize          = "a size or a kind said otherwise than its product's name writes it (flat plate, 165 वाट, 1 HP, 40 pc)"
	nameWordTwice     = "a word of one product's name read again as another product whose name shares it"
	unitNarrows       = "a unit only some products come in (a set) does not narrow the products a name may mean"
	placeAnswer       = "a customer chosen by the place their shop is in, which the seed does not write"
	numberNamed       = "a product named by a number (a bearing's 6205, a belt's 42) beside a count, or chosen by a word its name writes otherwise (ZZ, 2RS, A section)"
	numberWordName    = "a customer whose name is also a number word (Das, ten)"
	shortTypo         = "a short word of a product's name misspelt (layr), where only longer words may carry a typo"
	countAfterName    = "a name three products share with a bare count after it, read as no order"
	undiagnosed       = "of the four newest businesses, what it says that Munshi does not read is not yet told apart"
	caseWord          = "a case ending that means otherwise in Hindi (Nepali's ko, of, read as to)"
	unitWord          = "a word the trade uses for its goods that the unit table has as another unit (patta, belts, read as strips)"
)

// TestDialogDevelopmentSet holds Munshi to its development conversations:
// at least 95% end where the person meant them to, and none leaves a
// wrong order or entry; each ends as meant unless it is listed in
// unfinishedDialogs, and each listed one does not. The held-out set is measured, never asserted on
// (README, "Conversations").
func TestDialogDevelopmentSet(t *testing.T) {
	if testing.Short() {
		t.Skip("the development set takes seconds")
	}
	// Each file on its own seed: the main set, deliveries on customers
	// with several open orders, and a grocery, a building-materials and
	// a pharmaceutical, an agricultural-inputs, a dairy, a textile, an
	// electrical, a beverages, a stationery, a snacks, a paints, a
	// plumbing, a grain, a two-wheeler spares, a footwear, a cosmetics, a
	// spices, a tiles, a mobile accessories, a bakery supplies, a
	// kitchenware, an animal feed, a food packaging, a lubricants, a
	// surgical disposables, a building materials, an inverter batteries,
	// a pumps, a tyres, a dry fruits, a crockery, an ayurvedic goods, a
	// hotel supplies, a bearings, a coffee, a heaters, a plywood, a
	// hosiery, a pooja goods, an eggs, an aluminium, a tools, a frozen
	// foods, a sweets, a sanitaryware, a toys and gifts, an edible oil
	// and a lights and fans distributor's books with their own catalogs.
	total, succeeded := 0, 0
	for _, dir := range []string{"dev", "dev-deliveries", "dev-grocery", "dev-hardware", "dev-pharma", "dev-agri", "dev-dairy",
		"dev-textile", "dev-electrical", "dev-beverages", "dev-stationery", "dev-snacks", "dev-paints", "dev-plumbing",
		"dev-grain", "dev-autoparts", "dev-footwear", "dev-cosmetics", "dev-spices", "dev-tiles", "dev-mobile", "dev-bakery",
		"dev-kitchenware", "dev-feed", "dev-packaging", "dev-lubricants", "dev-surgical", "dev-cement", "dev-batteries",
		"dev-pumps", "dev-tyres", "dev-dryfruits", "dev-crockery", "dev-ayurveda", "dev-horeca", "dev-bearings", "dev-coffee",
		"dev-heaters", "dev-plywood", "dev-hosiery", "dev-pooja", "dev-eggs", "dev-aluminium", "dev-tools", "dev-frozen",
		"dev-sweets", "dev-sanitary", "dev-toys", "dev-oil", "dev-lights"} {
		r := evalJSON(t, nil, "--dialogs", filepath.Join("..", "..", "internal", "dialogs", "testdata", dir, "dialogs.jsonl"))
		if r.WrongEntries != 0 {
			t.Errorf("%s: %d conversations left a wrong entry", dir, r.WrongEntries)
		}
		for _, res := range r.Results {
			if why, known := unfinishedDialogs[res.ID]; res.Succeeded == known {
				t.Errorf("%s: %s succeeded %v (known unfinished: %q)", dir, res.ID, res.Succeeded, why)
			}
		}
		total, succeeded = total+r.Total, succeeded+r.Succeeded
	}
	if total < 150 || float64(succeeded) < 0.95*float64(total) {
		t.Fatalf("development conversations: %d of %d succeeded", succeeded, total)
	}
}
