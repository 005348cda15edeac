package orders

import "testing"

// TestReadDeliveryWithoutTheWord: goods handed over in the words people
// use ("saaman de aaye", "utaar diya", "hand over kar diye"), with the
// order named in any form or only its customer (a short name, a name
// followed by what kind of place it is, or Devanagari).
func TestReadDeliveryWithoutTheWord(t *testing.T) {
	p := demoParser(t)
	cases := []struct {
		text, order, customer string
		short                 []Item
	}{
		{"ORD-4101 ka maal de diya Gupta Supermart pe", "ORD-4101", "", nil},
		{"ord 4102 supply ho gaya sir", "ORD-4102", "", nil},
		{"4103 wala maal utaar diya Mehta ke godown mein", "ORD-4103", "", nil},
		{"माल दे दिया ऑर्डर ४१०७", "ORD-4107", "", nil},
		{"४१०९ वाले ऑर्डर का माल उतार दिया", "ORD-4109", "", nil},
		{"ORD-4112 wala dukaan pe de aaya", "ORD-4112", "", nil},
		{"dropped the stock at Agarwal medical, order 4106", "ORD-4106", "", nil},
		{"order #4122 supply hui aaj, 3 carton GC short", "ORD-4122", "", []Item{{SKU: "GC500", Qty: 72}}},
		{"Rajesh bhai ko 5124 handover kiya", "ORD-5124", "", nil},
		{"🚚 5116 pohonch gaya Sharma ji", "ORD-5116", "", nil},
		{"ORD-5120 delivered hai, lekin harpic ke 3 carton nahi gaye", "ORD-5120", "", []Item{{SKU: "TC500", Qty: 72}}},
		{"Rajesh bhai ka saaman de aaye", "", "C01", nil},
		{"Ashok provision ko samaan pahuncha diya", "", "C08", nil},
		{"hotel shivam wala order supply kar diya", "", "C05", nil},
		{"अग्रवाल को माल दे आए", "", "C07", nil},
		{"मेहता जी का माल गोदाम पर पहुंचा दिया", "", "C03", nil},
		{"Gupta bros ka order utaar diya aaj subah", "", "C09", nil},
		{"goods handed over at city hospital store room", "", "C06", nil},
		{"sharma ka saara samaan de diya bhai", "", "C02", nil},
	}
	for _, c := range cases {
		got := p.ReadDelivery(c.text)
		if got.OrderID != c.order || got.CustomerID != c.customer || !sameItems(got.Short, c.short) || len(got.Unresolved) > 0 {
			t.Errorf("ReadDelivery(%q) = %+v; want order %q customer %q short %v, no question", c.text, got, c.order, c.customer, c.short)
		}
	}
}
