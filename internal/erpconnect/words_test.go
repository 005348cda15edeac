package erpconnect

import (
	"strings"
	"testing"
)

// TestWords: the abbreviations Indian ERPs write, each read as its word.
func TestWords(t *testing.T) {
	cases := []struct{ name, want string }{
		{"ItmCd", "item code"},             // Itm, Cd
		{"ItemCode", "item code"},          // the same, written out
		{"itemcode", "item code"},          // run together
		{"ItmNm", "item name"},             // Nm
		{"PartyCd", "customer code"},       // Party is the customer
		{"PartyNm", "customer name"},       //
		{"Mob", "phone"},                   // Mob
		{"Ph", "phone"},                    // Ph
		{"MobileNo", "phone number"},       // Mobile, No
		{"CrLmt", "credit limit"},          // CrLmt
		{"crlimit", "credit limit"},        // run together
		{"Bal", "balance"},                 // Bal
		{"ClBal", "closing balance"},       // Cl
		{"BillDt", "bill date"},            // Dt
		{"VchNo", "voucher number"},        // Vch
		{"InvNo", "bill number"},           // Inv is a bill
		{"GSTPct", "tax percent"},          // GST, Pct
		{"TaxPer", "tax percent"},          // Tax, Per
		{"taxper", "tax percent"},          // run together
		{"UOM", "unit"},                    // UOM
		{"Unit", "unit"},                   //
		{"ClQty", "closing quantity"},      // Cl, Qty
		{"WIPQty", "wip quantity"},         // WIP
		{"QtyInProcess", "quantity wip"},   // InProcess
		{"ProdQty", "prod quantity"},       // Prod: in production
		{"Rt", "rate"},                     // Rt
		{"Amt", "amount"},                  // Amt
		{"AMT", "amount"},                  //
		{"RcptNo", "receipt number"},       // Rcpt
		{"PurGRN", "purchase grn"},         // Pur, GRN: goods received
		{"SONo", "sales order number"},     // SO
		{"ModifiedOn", "modified time"},    // change tracking
		{"LastUpd", "last modified"},       //
		{"QtyOnHand", "quantity hand"},     // on hand is no time
		{"CompCd", "company code"},         // Comp
		{"SupplerPhone", "supplier phone"}, // misspelt, one letter off
		{"AccQty", "acc quantity"},         // accepted, or an account: left to the field
		{"CancYN", "cancelled flag"},       //
		{"SrNo", "serial number"},          //
		{"StatCd", "status code"},          // Stat
		{"SmanCd", "salesman code"},        // Sman
		{"GdnCd", "godown code"},           // Gdn
		{"ShortNm", "short name"},          // an alias
		{"OpBal", "opening balance"},       // Op: not the closing balance
		{"EntryOn", "created time"},        // when entered, not when changed
		{"AltUOM", "alternate unit"},       // not the base unit
		{"RejQty", "rejected quantity"},    // Rej
		{"Item \"Master\" it's", "item master it s"},
		{"ग्राहक सूची", "ग्राहक सूची"},
	}
	for _, c := range cases {
		if got := strings.Join(words(c.name), " "); got != c.want {
			t.Errorf("words(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestNameMatch: a field's hint scores by the column's words; the
// table's help but never stand alone; a word saying otherwise kills it.
func TestNameMatch(t *testing.T) {
	phone := hints("phone", 1.0)
	if s, _ := nameMatch(words("Mob"), words("PartyMaster"), phone, []string{"supplier"}); s != 1 {
		t.Errorf("Mob: %v", s)
	}
	if s, why := nameMatch(words("SupplerPhone"), words("SupplierMaster"), phone, []string{"supplier"}); s != 0 || why != "name says supplier" {
		t.Errorf("SupplerPhone: %v %q", s, why)
	}
	code := hints("item code", 1.0)
	if s, _ := nameMatch(words("Code"), words("ItemMaster"), code, nil); s != 0.8 {
		t.Errorf("ItemMaster.Code: %v", s)
	}
	if s, _ := nameMatch(words("City"), words("ItemMaster"), code, nil); s != 0 {
		t.Errorf("ItemMaster.City: %v", s)
	}
}

// TestProfile: what sampled values look like.
func TestProfile(t *testing.T) {
	phones := profileValues([]any{"98100 12345", "+91-9810012346", "09810012347", "9810012348", "+91 98100 12349", int64(9810012350), "011-2345678", nil})
	if phones.n != 7 || phones.phone != 6 {
		t.Errorf("phones: %d of %d", phones.phone, phones.n)
	}
	money := profileValues([]any{"1250.50", "99.00", "12000.75", float64(45.5)})
	if money.num != 4 || money.decimalText != 3 || money.twoDP != 3 {
		t.Errorf("money: %+v", money)
	}
	names := profileValues([]any{"Sharma Traders", "SHARMA TRADERS ", "Gupta Stores"})
	if names.distinct != 3 || names.folded != 2 || len(names.collisions) != 1 || names.collisions[0] != "SHARMA TRADERS/Sharma Traders" {
		t.Errorf("names: %+v", names)
	}
	skus := profileValues([]any{"GC500", "PH1000", "FL-200", "gc500x"})
	if skus.sku != 4 || skus.upperCode != 3 || !skus.unique {
		t.Errorf("skus: %+v", skus)
	}
	for _, m := range []string{"CASH", "Chq", "Chq.", "NEFT", "UPI ", "gpay", "RTGS"} {
		if modeWord(m) == "" {
			t.Errorf("mode %q not read", m)
		}
	}
}

func TestMask(t *testing.T) {
	if got := mask("+91 98100-12345, ₹1,250.50, ९८१"); got != "+99 99999-99999, ₹9,999.99, 999" {
		t.Errorf("mask = %q", got)
	}
}
