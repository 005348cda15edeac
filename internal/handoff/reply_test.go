package handoff

import "testing"

func TestParseReply(t *testing.T) {
	for _, tc := range []struct {
		text string
		want OfficeReply
		ok   bool
	}{
		{"H-17 haan, 5% discount de do", OfficeReply{ID: 17, Text: "haan, 5% discount de do"}, true},
		{"h-17: haan", OfficeReply{ID: 17, Text: "haan"}, true},
		{"H17 done", OfficeReply{ID: 17, Close: true}, true},
		{"h-17 close", OfficeReply{ID: 17, Close: true}, true},
		{"H - 17 Done.", OfficeReply{ID: 17, Close: true}, true},
		{"  *H-3* ho gaya ✅", OfficeReply{ID: 3, Close: true}, true},
		{"H#4 - band karo", OfficeReply{ID: 4, Close: true}, true},
		{"H-17", OfficeReply{ID: 17}, true},
		{"(H-9) call him back", OfficeReply{ID: 9, Text: "call him back"}, true},
		{"H-17 done, bata dena usko", OfficeReply{ID: 17, Text: "done, bata dena usko"}, true},
		{"H-17 ok", OfficeReply{ID: 17, Text: "ok"}, true},
		{"haan H-17", OfficeReply{}, false},
		{"H2O ka stock", OfficeReply{}, false},
		{"HX12 bhejo", OfficeReply{}, false},
		{"H-0 done", OfficeReply{}, false},
		{"hello", OfficeReply{}, false},
		{"h", OfficeReply{}, false},
	} {
		got, ok := ParseReply(tc.text)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseReply(%q) = %+v, %v; want %+v, %v", tc.text, got, ok, tc.want, tc.ok)
		}
	}
}
