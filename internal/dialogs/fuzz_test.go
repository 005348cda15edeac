package dialogs

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRead: whatever the input, Read returns dialogs that keep FORMAT.md's
// promises, or an error that names a line; it never panics. The seed
// corpus is in testdata/fuzz/FuzzRead.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"id":"a","as":"sales","turns":["hi"],"expect":{"nothing":true}}`))
	f.Add([]byte(`{"id":"o","as":"+919900000003","turns":["5 carton GC for Rajesh","ok"],"expect":{"order":{"customer":"C01","payment":"cod","items":[{"sku":"GC500","qty":120}]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ds, err := Read(bytes.NewReader(data))
		if err != nil {
			if ds != nil {
				t.Fatal("dialogs returned with an error")
			}
			if !strings.HasPrefix(err.Error(), "dialogs: ") {
				t.Fatalf("error without the package prefix: %v", err)
			}
			return
		}
		ids := map[string]bool{}
		for _, d := range ds {
			if d.ID == "" || ids[d.ID] || d.Line < 1 || len(d.Turns) == 0 || len(d.Turns) > MaxTurns || d.As == "" {
				t.Fatalf("%+v", d)
			}
			ids[d.ID] = true
			for _, turn := range d.Turns {
				if strings.TrimSpace(turn) == "" || !utf8.ValidString(turn) {
					t.Fatalf("turn %q", turn)
				}
			}
			kinds := 0
			e := d.Expect
			for _, set := range []bool{e.Order != nil, e.Payment != nil, e.Delivery != nil, e.Nothing, e.Reply != nil} {
				if set {
					kinds++
				}
			}
			if kinds != 1 || e.Kind() == "" {
				t.Fatalf("expect %+v", e)
			}
			if e.Order != nil {
				for _, it := range e.Order.Items {
					if it.Qty <= 0 || it.SKU == "" {
						t.Fatalf("item %+v", it)
					}
				}
			}
			if e.Payment != nil && e.Payment.Amount <= 0 {
				t.Fatalf("payment %+v", e.Payment)
			}
		}
	})
}
