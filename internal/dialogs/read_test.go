package dialogs

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

func TestReadFormatExample(t *testing.T) {
	in := "\uFEFF# a comment\n\n  // another\r\n" +
		`{"id":"cust-pick-01","as":"sales","turns":["Gupta ke liye 5 carton GC, cash","Gupta Brothers","ok"],` +
		` "note":"which Gupta", "expect":{"order":{"customer":"C09","payment":"cod","items":[{"sku":"GC500","qty":120}]}}}` + "\r\n" +
		`{"id":"pay-1","as":"+91 99000 00002","turns":["Mehta paid 1,20,000"],"expect":{"payment":{"customer":"C03","amount":120000.5,"mode":"Cheque","reference":"CHQ-1"}}}` + "\n" +
		`{"id":"del-1","as":"OWNER","turns":["T-5531 delivered"],"expect":{"delivery":{"order":"T-5531"}}}` + "\n" +
		`{"id":"no-1","as":"accounts","turns":["hello"],"expect":{"nothing":true}}` + "\n" +
		`{"id":"rep-1","as":"owner","turns":["dues excel"],"expect":{"reply":{"contains":["₹2,10,000"],"file":"excel"}}}`
	ds, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Dialog{
		{ID: "cust-pick-01", As: "sales", Turns: []string{"Gupta ke liye 5 carton GC, cash", "Gupta Brothers", "ok"}, Note: "which Gupta", Line: 4,
			Expect: Expect{Order: &OrderExpect{Customer: "C09", Payment: domain.PayCOD, Items: []Item{{SKU: "GC500", Qty: 120}}}}},
		{ID: "pay-1", As: "+919900000002", Turns: []string{"Mehta paid 1,20,000"}, Line: 5,
			Expect: Expect{Payment: &PaymentExpect{Customer: "C03", Amount: 1_20_000_50, Mode: domain.PayCheque, Reference: "CHQ-1"}}},
		{ID: "del-1", As: "owner", Turns: []string{"T-5531 delivered"}, Line: 6, Expect: Expect{Delivery: &DeliveryExpect{Order: "T-5531"}}},
		{ID: "no-1", As: "accounts", Turns: []string{"hello"}, Line: 7, Expect: Expect{Nothing: true}},
		{ID: "rep-1", As: "owner", Turns: []string{"dues excel"}, Line: 8, Expect: Expect{Reply: &ReplyExpect{Contains: []string{"₹2,10,000"}, File: FileExcel}}},
	}
	if !reflect.DeepEqual(ds, want) {
		t.Fatalf("got  %+v\nwant %+v", ds, want)
	}
	for i, k := range []string{KindOrder, KindPayment, KindDelivery, KindNothing, KindReply} {
		if ds[i].Expect.Kind() != k || ds[i].Expect.String() == "" {
			t.Errorf("%s: kind %q, %q", ds[i].ID, ds[i].Expect.Kind(), ds[i].Expect.String())
		}
	}
	if ds, err := Read(strings.NewReader("\n# nothing here\n")); err != nil || len(ds) != 0 {
		t.Fatalf("empty file: %v %v", ds, err)
	}
}

func TestReadRefusesBadLines(t *testing.T) {
	ok := `"as":"sales","turns":["hi"],"expect":{"nothing":true}`
	for _, tc := range []struct {
		name, line, want string
	}{
		{"not json", `{"id":"a",`, "not valid JSON"},
		{"syntax", `{"id":"a" "as":"sales"}`, "not valid JSON at byte"},
		{"array", `["id"]`, "want a JSON object"},
		{"two values", `{"id":"a",` + ok + `} {}`, "more than one JSON value"},
		{"unknown field", `{"id":"a",` + ok + `,"expects":{}}`, `unknown field "expects"`},
		{"no id", `{` + ok + `}`, `no "id"`},
		{"empty id", `{"id":" ",` + ok + `}`, `"id" is empty`},
		{"spaced id", `{"id":" a",` + ok + `}`, "spaces around"},
		{"control id", `{"id":"a\u0007b",` + ok + `}`, "control character"},
		{"long id", `{"id":"` + strings.Repeat("x", MaxIDBytes+1) + `",` + ok + `}`, "longer than"},
		{"number id", `{"id":7,` + ok + `}`, `"id" has the wrong type`},
		{"no as", `{"id":"a","turns":["hi"],"expect":{"nothing":true}}`, `no "as"`},
		{"bad role", `{"id":"a","as":"manager","turns":["hi"],"expect":{"nothing":true}}`, "neither a role"},
		{"bad phone", `{"id":"a","as":"+91abc","turns":["hi"],"expect":{"nothing":true}}`, "E.164"},
		{"no turns", `{"id":"a","as":"sales","expect":{"nothing":true}}`, `no "turns"`},
		{"empty turns", `{"id":"a","as":"sales","turns":[],"expect":{"nothing":true}}`, `no "turns"`},
		{"string turns", `{"id":"a","as":"sales","turns":"hi","expect":{"nothing":true}}`, `"turns" has the wrong type`},
		{"empty turn", `{"id":"a","as":"sales","turns":["hi","  \n"],"expect":{"nothing":true}}`, "turn 2 is empty"},
		{"number turn", `{"id":"a","as":"sales","turns":[5],"expect":{"nothing":true}}`, "turn 1 is not a string"},
		{"nul turn", `{"id":"a","as":"sales","turns":["a\u0000b"],"expect":{"nothing":true}}`, "NUL"},
		{"long turn", `{"id":"a","as":"sales","turns":["` + strings.Repeat("x", MaxTurnBytes+1) + `"],"expect":{"nothing":true}}`, "turn 1 is longer"},
		{"many turns", `{"id":"a","as":"sales","turns":[` + strings.Repeat(`"x",`, MaxTurns) + `"x"],"expect":{"nothing":true}}`, "more than 50"},
		{"no expect", `{"id":"a","as":"sales","turns":["hi"]}`, `no "expect"`},
		{"empty expect", `{"id":"a","as":"sales","turns":["hi"],"expect":{}}`, `no "expect"`},
		{"unknown kind", `{"id":"a","as":"sales","turns":["hi"],"expect":{"refund":{}}}`, `unknown expect kind "refund"`},
		{"two kinds", `{"id":"a","as":"sales","turns":["hi"],"expect":{"nothing":true,"reply":{"contains":["x"]}}}`, "want exactly one"},
		{"nothing false", `{"id":"a","as":"sales","turns":["hi"],"expect":{"nothing":false}}`, "expect.nothing: want true"},
		{"order no items", `{"id":"a",` + `"as":"sales","turns":["hi"],"expect":{"order":{"customer":"C01","payment":"cod","items":[]}}}`, `no "items"`},
		{"order bad mode", `{"id":"a","as":"sales","turns":["hi"],"expect":{"order":{"customer":"C01","payment":"cash","items":[{"sku":"GC500","qty":1}]}}}`, `"payment" "cash" is not a payment mode`},
		{"order no customer", `{"id":"a","as":"sales","turns":["hi"],"expect":{"order":{"payment":"cod","items":[{"sku":"GC500","qty":1}]}}}`, `no "customer"`},
		{"order fractional qty", `{"id":"a","as":"sales","turns":["hi"],"expect":{"order":{"customer":"C01","payment":"cod","items":[{"sku":"GC500","qty":1.5}]}}}`, `item 1: "qty" 1.5`},
		{"order zero qty", `{"id":"a","as":"sales","turns":["hi"],"expect":{"order":{"customer":"C01","payment":"cod","items":[{"sku":"GC500","qty":0}]}}}`, `"qty" 0`},
		{"order huge qty", `{"id":"a","as":"sales","turns":["hi"],"expect":{"order":{"customer":"C01","payment":"cod","items":[{"sku":"GC500","qty":99999999999999999999999}]}}}`, `"qty"`},
		{"order no qty", `{"id":"a","as":"sales","turns":["hi"],"expect":{"order":{"customer":"C01","payment":"cod","items":[{"sku":"GC500"}]}}}`, `no "qty"`},
		{"order spaced sku", `{"id":"a","as":"sales","turns":["hi"],"expect":{"order":{"customer":"C01","payment":"cod","items":[{"sku":"GC 500","qty":1}]}}}`, "space"},
		{"order item field", `{"id":"a","as":"sales","turns":["hi"],"expect":{"order":{"customer":"C01","payment":"cod","items":[{"sku":"GC500","qty":1,"unit":"carton"}]}}}`, `unknown field "unit"`},
		{"payment no amount", `{"id":"a","as":"sales","turns":["hi"],"expect":{"payment":{"customer":"C01","mode":"upi"}}}`, `no "amount"`},
		{"payment negative", `{"id":"a","as":"sales","turns":["hi"],"expect":{"payment":{"customer":"C01","amount":-5,"mode":"upi"}}}`, `"amount" -5`},
		{"payment paise", `{"id":"a","as":"sales","turns":["hi"],"expect":{"payment":{"customer":"C01","amount":5.123,"mode":"upi"}}}`, `"amount" 5.123`},
		{"payment no mode", `{"id":"a","as":"sales","turns":["hi"],"expect":{"payment":{"customer":"C01","amount":5}}}`, `no "mode"`},
		{"delivery no order", `{"id":"a","as":"sales","turns":["hi"],"expect":{"delivery":{}}}`, `no "order"`},
		{"reply empty", `{"id":"a","as":"sales","turns":["hi"],"expect":{"reply":{}}}`, `want "contains"`},
		{"reply empty string", `{"id":"a","as":"sales","turns":["hi"],"expect":{"reply":{"contains":[""]}}}`, `"contains" string 1 is empty`},
		{"reply bad file", `{"id":"a","as":"sales","turns":["hi"],"expect":{"reply":{"file":"pdf"}}}`, `"file" "pdf"`},
		{"reply contains string", `{"id":"a","as":"sales","turns":["hi"],"expect":{"reply":{"contains":"x"}}}`, `has the wrong type`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := "# header\n" + `{"id":"fine",` + ok + "}\n" + tc.line + "\n"
			ds, err := Read(strings.NewReader(in))
			if err == nil {
				t.Fatalf("accepted: %+v", ds)
			}
			if ds != nil {
				t.Errorf("dialogs returned with an error: %+v", ds)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "dialogs: line 3: ") || !strings.Contains(msg, tc.want) {
				t.Fatalf("error %q, want line 3 and %q", msg, tc.want)
			}
			if strings.Contains(msg, "Go struct") || strings.Contains(msg, "json.Number") || strings.Contains(msg, "wireDialog") {
				t.Errorf("Go's type names leak into %q", msg)
			}
		})
	}
}

func TestReadDuplicatesAndManyProblems(t *testing.T) {
	line := func(id string) string {
		return `{"id":"` + id + `","as":"sales","turns":["hi"],"expect":{"nothing":true}}` + "\n"
	}
	_, err := Read(strings.NewReader(line("a") + line("b") + line("a")))
	if err == nil || !strings.Contains(err.Error(), `line 3: id "a" is already used on line 1`) {
		t.Fatalf("duplicate id: %v", err)
	}
	var b strings.Builder
	for range 30 {
		b.WriteString("{oops\n")
	}
	_, err = Read(strings.NewReader(b.String()))
	if err == nil {
		t.Fatal("accepted")
	}
	msg := err.Error()
	if !strings.Contains(msg, "line 1:") || !strings.Contains(msg, "line 20:") || strings.Contains(msg, "line 21:") ||
		!strings.Contains(msg, "and 10 more bad lines") {
		t.Fatalf("want the first 20 lines and a count of the rest: %s", msg)
	}
}

func TestReadHostileInput(t *testing.T) {
	ok := `{"id":"a","as":"sales","turns":["hi"],"expect":{"nothing":true}}`
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"bad utf8", []byte(`{"id":"a` + "\xff" + `","as":"sales","turns":["hi"],"expect":{"nothing":true}}`), "line 1: not valid UTF-8"},
		{"long line", []byte(`{"id":"a","as":"sales","turns":["` + strings.Repeat("x", MaxLineBytes) + `"],"expect":{"nothing":true}}`), "line 1: longer than 1024 KiB"},
		{"binary", []byte("\x00\x01\x02\x03"), "line 1:"},
		{"deep nesting", []byte(`{"id":"a","as":"sales","turns":["hi"],"note":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `,"expect":{"nothing":true}}`), "line 1:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
	// Unicode is welcome in every string: Devanagari, emoji, RTL marks.
	uni := `{"id":"हिंदी-01","as":"sales","turns":["राजेश के लिए 5 carton GC 🙏","\u200fok"],"note":"✓","expect":{"reply":{"contains":["₹२,१०,०००"]}}}`
	ds, err := Read(strings.NewReader(uni))
	if err != nil || len(ds) != 1 || ds[0].ID != "हिंदी-01" || ds[0].Turns[0] != "राजेश के लिए 5 carton GC 🙏" {
		t.Fatalf("unicode: %+v %v", ds, err)
	}
	// More than MaxBytes is refused whole, with ErrTooLarge.
	big := strings.Repeat(ok+"\n", MaxBytes/len(ok)+1)
	if _, err := Read(strings.NewReader(big)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("oversized input: %v", err)
	}
	// More than MaxDialogs.
	var b strings.Builder
	for i := range MaxDialogs + 1 {
		b.WriteString(`{"id":"d` + strconv.Itoa(i) + `","as":"sales","turns":["hi"],"expect":{"nothing":true}}` + "\n")
	}
	if _, err := Read(strings.NewReader(b.String())); err == nil || !strings.Contains(err.Error(), "more than 5000 dialogs") {
		t.Fatalf("too many dialogs: %v", err)
	}
}

// failingReader fails after its data.
type failingReader struct{ data []byte }

func (f *failingReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, errors.New("disk on fire")
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

func TestReadWrapsReaderErrors(t *testing.T) {
	_, err := Read(&failingReader{data: []byte("{")})
	if err == nil || !strings.HasPrefix(err.Error(), "dialogs: read: ") || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("%v", err)
	}
}

func TestReadErrorsNameTheirLine(t *testing.T) {
	_, err := Read(strings.NewReader("\n\n{\"id\":\"a\",\"as\":\"sales\",\"turns\":[\"hi\"],\"expect\":{\"nothing\":false}}\n"))
	var le *LineError
	if !errors.As(err, &le) || le.Line != 3 || !strings.Contains(le.Err.Error(), `dialog "a": expect.nothing: want true`) {
		t.Fatalf("%v", err)
	}
	_, err = Read(strings.NewReader(`{"id":"a",}`))
	var syn *json.SyntaxError
	if !errors.As(err, &syn) {
		t.Fatalf("the JSON error is not wrapped: %v", err)
	}
}
