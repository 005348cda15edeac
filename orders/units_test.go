package orders

import (
	"context"
	"testing"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// TestUnitSettlesTheProduct: the unit said picks the product. Of two
// attas both called "atta", the one sold in bundles; "oil" names the
// pouch, but said in tins it is the tin, whose name and aliases have
// "oil" too. A unit both come in, or none does, is still asked about.
func TestUnitSettlesTheProduct(t *testing.T) {
	ps := []domain.Product{
		{SKU: "ATA10", Name: "Aashirvaad Atta 10kg", Aliases: []string{"atta"}, Unit: "bag", Price: 42000},
		{SKU: "ATA5", Name: "Aashirvaad Atta 5kg", Aliases: []string{"atta", "chhota atta"}, Unit: "bag",
			PackSizes: []domain.PackSize{{Name: "bundle", Units: 6}}, Price: 22000},
		{SKU: "OIL1", Name: "Fortune Soyabean Oil 1L", Aliases: []string{"fortune", "oil"}, Unit: "pouch",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 10}}, Price: 14500},
		{SKU: "OIL15", Name: "Fortune Soyabean Oil 15L Tin", Aliases: []string{"oil tin", "tin wala oil"}, Unit: "tin", Price: 215000},
	}
	cs := []domain.Customer{{ID: "K01", Name: "Agarwal Kirana Bhandar", Aliases: []string{"Agarwal"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "Agarwal ko 2 tin oil, cash", customer: "K01", payment: domain.PayCOD, items: map[string]int64{"OIL15": 2}},
		{text: "Agarwal 3 carton oil", customer: "K01", items: map[string]int64{"OIL1": 30}},
		{text: "Agarwal 2 bundle atta", customer: "K01", items: map[string]int64{"ATA5": 12}},
		{text: "Agarwal 5 bag atta", customer: "K01", ask: []string{"Which product do you mean", "Aashirvaad Atta 10kg", "Aashirvaad Atta 5kg"}},
		{text: "Agarwal 2 drum oil", customer: "K01", ask: []string{"Fortune Soyabean Oil 1L does not come in drums"}},
		{text: "Agarwal 2 tin fortune aur 1 bundle chhota atta", customer: "K01", items: map[string]int64{"OIL15": 2, "ATA5": 6}},
	} {
		checkParse(t, p, c)
	}
}

// parserFor is a parser for a catalog and customers of the test's own.
func parserFor(t *testing.T, ps []domain.Product, cs []domain.Customer) *Parser {
	t.Helper()
	r, err := intent.NewRouter(intent.Vocabulary{Products: ps, Customers: cs}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return NewParser(r, ps, cs)
}

// TestStripsByTheirNames: a medicine's strip is also a patta (पत्ता), as
// its box is a dibba.
func TestStripsByTheirNames(t *testing.T) {
	ps := []domain.Product{
		{SKU: "DOLO650", Name: "Dolo 650 Tablet", Aliases: []string{"dolo", "डोलो"}, Unit: "strip",
			PackSizes: []domain.PackSize{{Name: "box", Units: 10}}, Price: 3000},
		{SKU: "CROCA", Name: "Crocin Advance 500mg", Aliases: []string{"crocin", "क्रोसिन"}, Unit: "strip",
			PackSizes: []domain.PackSize{{Name: "box", Units: 20}}, Price: 2800},
	}
	cs := []domain.Customer{{ID: "M01", Name: "Shree Ram Medical Store", Aliases: []string{"Shree Ram", "श्री राम"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "श्री राम मेडिकल को 10 डिब्बा डोलो और 20 पत्ता क्रोसिन", customer: "M01", items: map[string]int64{"DOLO650": 100, "CROCA": 20}},
		{text: "Shree Ram ko 5 patte dolo 650", customer: "M01", items: map[string]int64{"DOLO650": 5}},
	} {
		checkParse(t, p, c)
	}
}

// TestALadiIsAStripAndAJodaAPair: sachets are sold by the strip, which
// people call a ladi, and shoes by the pair, a jode.
func TestALadiIsAStripAndAJodaAPair(t *testing.T) {
	ps := []domain.Product{
		{SKU: "CPSACHET", Name: "Clinic Plus Shampoo Sachet Rs 2", Aliases: []string{"clinic plus"}, Unit: "sachet",
			PackSizes: []domain.PackSize{{Name: "strip", Units: 16}}, Price: 175},
		{SKU: "ACTS", Name: "Action Synergy Sports Shoe", Aliases: []string{"action synergy"}, Unit: "pair",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 10}}, Price: 64900},
	}
	cs := []domain.Customer{{ID: "B04", Name: "Annapurna Stores", Aliases: []string{"annapurna"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "annapurna 20 ladi clinic plus", customer: "B04", items: map[string]int64{"CPSACHET": 320}},
		{text: "annapurna ko 50 jode action synergy", customer: "B04", items: map[string]int64{"ACTS": 50}},
	} {
		checkParse(t, p, c)
	}
}

// TestAPacketOfPouches: a product sold by the pouch or the sachet, and in
// no packs, is counted in packets too ("24 packet doodh"); a bottle is not
// a packet.
func TestAPacketOfPouches(t *testing.T) {
	ps := []domain.Product{
		{SKU: "MILK", Name: "Full Cream Milk 1L Pouch", Aliases: []string{"doodh"}, Unit: "pouch",
			PackSizes: []domain.PackSize{{Name: "crate", Units: 12}}, Price: 6600},
		{SKU: "SHAMP", Name: "Clinic Plus Sachet", Aliases: []string{"shampoo"}, Unit: "sachet", Price: 100},
		{SKU: "HARPIC", Name: "Harpic 500ml", Aliases: []string{"harpic"}, Unit: "bottle", Price: 9000},
	}
	cs := []domain.Customer{{ID: "K01", Name: "Agarwal Kirana Bhandar", Aliases: []string{"Agarwal"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "Agarwal ko 24 packet doodh", customer: "K01", items: map[string]int64{"MILK": 24}},
		{text: "Agarwal ko 2 crate doodh aur 100 pkt shampoo", customer: "K01", items: map[string]int64{"MILK": 24, "SHAMP": 100}},
		{text: "Agarwal ko 5 packet harpic", customer: "K01", ask: []string{"Harpic 500ml does not come in packs"}},
	} {
		checkParse(t, p, c)
	}
}

// TestAWordSeveralNamesEndWith: a word that ends several products' names
// ("saree", "cleaner"), said alone, names one of them and is asked about
// with its quantity kept; an alias of one product stays that product's,
// and a unit ending names ("Tin") is no such word.
func TestAWordSeveralNamesEndWith(t *testing.T) {
	ps := []domain.Product{
		{SKU: "SAREE-COT", Name: "Cotton Saree", Aliases: []string{"cotton saree"}, Unit: "piece",
			PackSizes: []domain.PackSize{{Name: "bundle", Units: 10}}, Price: 45000},
		{SKU: "SAREE-SILK", Name: "Art Silk Saree", Aliases: []string{"silk saree"}, Unit: "piece",
			PackSizes: []domain.PackSize{{Name: "bundle", Units: 5}}, Price: 125000},
		{SKU: "MILK-FC", Name: "Full Cream Milk 1L Pouch", Aliases: []string{"milk"}, Unit: "pouch", Price: 6600},
		{SKU: "MILK-TN", Name: "Toned Milk 500ml Pouch", Aliases: []string{"toned"}, Unit: "pouch", Price: 2700},
		{SKU: "GHEE1L", Name: "Desi Ghee 1L Tin", Aliases: []string{"ghee 1l"}, Unit: "tin", Price: 61000},
		{SKU: "GHEE15", Name: "Desi Ghee 15kg Tin", Aliases: []string{"ghee 15kg"}, Unit: "tin", Price: 840000},
	}
	cs := []domain.Customer{{ID: "T02", Name: "Kumar Cloth House", Aliases: []string{"Kumar"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "Kumar ko saree chahiye 2 bundle", customer: "T02", ask: []string{`Which product do you mean by "saree" (2 bundles)`, "Cotton Saree", "Art Silk Saree"}},
		{text: "Kumar ko 10 silk saree", customer: "T02", items: map[string]int64{"SAREE-SILK": 10}},
		{text: "Kumar ko 24 pouch milk", customer: "T02", items: map[string]int64{"MILK-FC": 24}},
		{text: "Kumar ko 2 tin", customer: "T02", ask: []string{"Which product are the 2 tins for?"}},
	} {
		checkParse(t, p, c)
	}
	demo := demoParser(t)
	checkParse(t, demo, parseCase{text: "Rajesh ko 5 carton cleaner", customer: "C01",
		ask: []string{`Which product do you mean by "cleaner" (5 cartons)`, "Glass Cleaner 500ml", "Toilet Cleaner 500ml", "Floor Cleaner 1L"}})
}

// TestASizeSettlesASibling: a power in watts is a size, and a size the
// product named does not come in names the one product that does and has
// every word of that name; a size none has is asked about.
func TestASizeSettlesASibling(t *testing.T) {
	ps := []domain.Product{
		{SKU: "LED9", Name: "Philips LED Bulb 9W", Aliases: []string{"bulb", "led bulb"}, Unit: "piece",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 50}}, Price: 10500},
		{SKU: "LED12", Name: "Philips LED Bulb 12W", Aliases: []string{"12w bulb"}, Unit: "piece",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 50}}, Price: 13500},
	}
	cs := []domain.Customer{{ID: "L01", Name: "Sharma Electricals", Aliases: []string{"Sharma"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "Sharma 50 bulb 9 watt", customer: "L01", items: map[string]int64{"LED9": 50}},
		{text: "Sharma 50 bulb 12 watt", customer: "L01", items: map[string]int64{"LED12": 50}},
		{text: "Sharma ko 2 carton led bulb 12w", customer: "L01", items: map[string]int64{"LED12": 100}},
		{text: "Sharma 50 bulb 15 watt", customer: "L01", ask: []string{"comes in 9W, not 15W"}},
	} {
		checkParse(t, p, c)
	}
}

// TestASiblingByItsNumber: "1.5 nahi 2.5" on a draft of the 1.5 sq mm
// wire puts the 2.5 sq mm wire in its place, at the coils said; so does
// a word, "splendor nahi activa wala" on brake shoes. A number or word no
// sibling has, or one said with more, is no such swap.
func TestASiblingByItsNumber(t *testing.T) {
	ps := []domain.Product{
		{SKU: "WIRE15", Name: "Havells Wire 1.5 sq mm 90m", Aliases: []string{"wire 1.5"}, Unit: "coil", Price: 145000},
		{SKU: "WIRE25", Name: "Havells Wire 2.5 sq mm 90m", Aliases: []string{"wire 2.5"}, Unit: "coil", Price: 225000},
		{SKU: "TMT8", Name: "TMT Bar 8mm", Aliases: []string{"sariya 8mm"}, Unit: "piece", PackSizes: []domain.PackSize{{Name: "bundle", Units: 10}}, Price: 31000},
		{SKU: "TMT12", Name: "TMT Bar 12mm", Aliases: []string{"sariya 12mm"}, Unit: "piece", PackSizes: []domain.PackSize{{Name: "bundle", Units: 5}}, Price: 69000},
		{SKU: "PEP125", Name: "Pepsi 1.25L PET", Aliases: []string{"pepsi 1.25"}, Unit: "bottle", PackSizes: []domain.PackSize{{Name: "case", Units: 12}}, Price: 6500},
		{SKU: "PEP225", Name: "Pepsi 2.25L PET", Aliases: []string{"pepsi 2.25"}, Unit: "bottle", PackSizes: []domain.PackSize{{Name: "case", Units: 9}}, Price: 9500},
		{SKU: "BSSPL", Name: "Brake Shoe Splendor", Aliases: []string{"brake shoe"}, Unit: "set", PackSizes: []domain.PackSize{{Name: "box", Units: 10}}, Price: 9500},
		{SKU: "BSACT", Name: "Brake Shoe Activa", Aliases: []string{"brake shoe"}, Unit: "set", PackSizes: []domain.PackSize{{Name: "box", Units: 10}}, Price: 11500},
		{SKU: "CPSPL", Name: "Clutch Plate Splendor", Aliases: []string{"clutch plate"}, Unit: "set", Price: 26000},
	}
	cs := []domain.Customer{{ID: "L01", Name: "Sharma Electricals", Aliases: []string{"Sharma"}}}
	r, err := intent.NewRouter(intent.Vocabulary{Products: ps, Customers: cs}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := NewParser(r, ps, cs)
	products := map[string]domain.Product{}
	for _, x := range ps {
		products[x.SKU] = x
	}
	for _, c := range []struct {
		items []Item
		fix   string
		want  []Item // nil: no swap (asked, or nothing changed)
	}{
		{[]Item{{SKU: "WIRE15", Qty: 10, SaidQty: 10, SaidUnit: "coil"}}, "1.5 nahi 2.5", []Item{{SKU: "WIRE25", Qty: 10}}},
		{[]Item{{SKU: "TMT8", Qty: 40, SaidQty: 4, SaidUnit: "bundle"}}, "8mm nahi 12mm wala", []Item{{SKU: "TMT12", Qty: 20}}},
		{[]Item{{SKU: "PEP125", Qty: 48, SaidQty: 4, SaidUnit: "case"}}, "1.25 nahi 2.25", []Item{{SKU: "PEP225", Qty: 36}}},
		{[]Item{{SKU: "WIRE15", Qty: 10, SaidQty: 10, SaidUnit: "coil"}}, "1.5 nahi 6", nil},
		{[]Item{{SKU: "WIRE15", Qty: 10, SaidQty: 10, SaidUnit: "coil"}}, "1.5 nahi 2.5 Sharma ke liye", nil},
		// A word of the name, too: the sibling with the other word.
		{[]Item{{SKU: "BSSPL", Qty: 10, SaidQty: 1, SaidUnit: "box"}}, "splendor nahi activa wala", []Item{{SKU: "BSACT", Qty: 10}}},
		{[]Item{{SKU: "CPSPL", Qty: 5}}, "splendor nahi activa wala", nil}, // no Clutch Plate Activa
	} {
		dr, err := Price(cs[0], domain.PayCOD, c.items, products)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := p.correction(dr, r.Route(context.Background(), c.fix))
		swapped := got.question == "" && len(got.items) == len(c.want)
		for i := range c.want {
			swapped = swapped && got.items[i].SKU == c.want[i].SKU && got.items[i].Qty == c.want[i].Qty
		}
		if c.want != nil && !swapped {
			t.Errorf("%q on %v: items %v, question %q; want %v", c.fix, c.items, got.items, got.question, c.want)
		}
		if c.want == nil && len(got.items) == 1 && got.items[0].SKU != c.items[0].SKU {
			t.Errorf("%q on %v: swapped to %v", c.fix, c.items, got.items)
		}
	}
}

// TestGrossesAndReams: a gross is a dozen dozen, and a ream is also a rim.
func TestGrossesAndReams(t *testing.T) {
	ps := []domain.Product{
		{SKU: "PEN", Name: "Reynolds Ball Pen Blue", Aliases: []string{"blue pen"}, Unit: "piece", PackSizes: []domain.PackSize{{Name: "box", Units: 50}}, Price: 700},
		{SKU: "A4", Name: "JK Copier A4 75gsm", Aliases: []string{"a4"}, Unit: "ream", PackSizes: []domain.PackSize{{Name: "box", Units: 5}}, Price: 26000},
	}
	cs := []domain.Customer{{ID: "S04", Name: "Raj Xerox Centre", Aliases: []string{"Raj Xerox"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "Raj xerox 2 gross blue pen", customer: "S04", items: map[string]int64{"PEN": 288}},
		{text: "Raj xerox 20 rim a4", customer: "S04", items: map[string]int64{"A4": 20}},
	} {
		checkParse(t, p, c)
	}
}

// TestAPriceTellsProductsApart: a price said beside a name, or a number
// with "wala", picks the product or sibling whose name has it, and is no
// quantity; a price no such product has is asked about. A word every
// priced name ends with ("rupees") names none of them.
func TestAPriceTellsProductsApart(t *testing.T) {
	ps := []domain.Product{
		{SKU: "PARLEG5", Name: "Parle-G Rs 5", Aliases: []string{"parle"}, Unit: "packet", PackSizes: []domain.PackSize{{Name: "box", Units: 48}}, Price: 460},
		{SKU: "PARLEG10", Name: "Parle-G Rs 10", Aliases: []string{"parle 10"}, Unit: "packet", PackSizes: []domain.PackSize{{Name: "box", Units: 24}}, Price: 920},
		{SKU: "KURK5", Name: "Kurkure Masala Munch Rs 5", Aliases: []string{"kurkure"}, Unit: "sachet", PackSizes: []domain.PackSize{{Name: "carton", Units: 144}}, Price: 450},
		{SKU: "KURK20", Name: "Kurkure Masala Munch Rs 20", Aliases: []string{"kurkure 20"}, Unit: "packet", PackSizes: []domain.PackSize{{Name: "carton", Units: 48}}, Price: 1800},
	}
	cs := []domain.Customer{{ID: "N01", Name: "Bansal Kirana", Aliases: []string{"Bansal"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "Bansal ko 2 box 10 rupay wala parle", customer: "N01", items: map[string]int64{"PARLEG10": 48}},
		{text: "Bansal ko 5 carton 20 wala kurkure", customer: "N01", items: map[string]int64{"KURK20": 240}},
		{text: "Bansal ko parle 5 rupee wala 10 box", customer: "N01", items: map[string]int64{"PARLEG5": 480}},
		{text: "Bansal ko 2 box parle", customer: "N01", items: map[string]int64{"PARLEG5": 96}},
		{text: "Bansal ko 2 box 15 rupay wala parle", customer: "N01", ask: []string{"Parle-G Rs 5 is not sold at ₹15"}},
		{text: "Bansal ko 10 rupay wala", customer: "N01", ask: []string{"Which product"}},
	} {
		checkParse(t, p, c)
	}
}

// TestPacksTheCatalogKeepsApart: a catalog that sells dal by the bori of
// 50 kg and the bag of 25 kg keeps the two apart, though a bori is a bag
// to the unit table: each is its own pack, also in Devanagari or with an
// ending, and a product sold by one of them alone is ordered by either
// name. Another word for a sack ("katta") may be either, and is asked
// about. Where no product comes in both, a bori is still a bag.
func TestPacksTheCatalogKeepsApart(t *testing.T) {
	dal := []domain.PackSize{{Name: "bori", Units: 50}, {Name: "bag", Units: 25}, {Name: "quintal", Units: 100}}
	ps := []domain.Product{
		{SKU: "CHANA", Name: "Chana Dal", Aliases: []string{"chana"}, Unit: "kg", PackSizes: dal, Price: 7800},
		{SKU: "ARHAR", Name: "Arhar Dal", Aliases: []string{"arhar"}, Unit: "kg", PackSizes: dal, Price: 13500},
		{SKU: "PARMAL", Name: "Parmal Rice", Aliases: []string{"parmal"}, Unit: "kg",
			PackSizes: []domain.PackSize{{Name: "bori", Units: 50}}, Price: 3600},
	}
	cs := []domain.Customer{{ID: "G01", Name: "Agarwal Kirana Store", Aliases: []string{"Agarwal"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "Agarwal 2 bori chana dal aur 1 bori arhar", customer: "G01", items: map[string]int64{"CHANA": 100, "ARHAR": 50}},
		{text: "Agarwal 3 bag chana", customer: "G01", items: map[string]int64{"CHANA": 75}},
		{text: "Agarwal 2 बोरी chana, 2 boriya arhar", customer: "G01", items: map[string]int64{"CHANA": 100, "ARHAR": 100}},
		{text: "Agarwal 4 bag parmal", customer: "G01", items: map[string]int64{"PARMAL": 200}},
		{text: "Agarwal 5 katta chana", customer: "G01", ask: []string{"How many Chana Dal?", "bori of 50", "bag of 25"}},
		{text: "Agarwal 5 katta parmal", customer: "G01", items: map[string]int64{"PARMAL": 250}},
	} {
		checkParse(t, p, c)
	}
	one := parserFor(t, ps[2:], cs)
	checkParse(t, one, parseCase{text: "Agarwal 2 bag parmal", customer: "G01", items: map[string]int64{"PARMAL": 100}})
}

// TestADabbaIsTheProductsContainer: a dabba is the tin thinner comes in
// and the box tea bags come in; of a product that comes in both it is
// asked about.
func TestADabbaIsTheProductsContainer(t *testing.T) {
	ps := []domain.Product{
		{SKU: "THIN", Name: "Thinner 1L", Aliases: []string{"thinner"}, Unit: "tin",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 12}}, Price: 18000},
		{SKU: "TEA", Name: "Tea Bags", Aliases: []string{"tea"}, Unit: "piece",
			PackSizes: []domain.PackSize{{Name: "box", Units: 100}}, Price: 100},
		{SKU: "GHEE", Name: "Ghee 1L", Aliases: []string{"ghee"}, Unit: "tin",
			PackSizes: []domain.PackSize{{Name: "box", Units: 6}}, Price: 60000},
	}
	cs := []domain.Customer{{ID: "H01", Name: "Malwa Paints", Aliases: []string{"Malwa"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "Malwa 6 dabba thinner", customer: "H01", items: map[string]int64{"THIN": 6}},
		{text: "Malwa 2 dibbe tea", customer: "H01", items: map[string]int64{"TEA": 200}},
		{text: "Malwa 3 डिब्बा ghee", customer: "H01", ask: []string{"How many Ghee 1L?", "box of 6"}},
		{text: "Malwa 3 box ghee", customer: "H01", items: map[string]int64{"GHEE": 18}},
	} {
		checkParse(t, p, c)
	}
}

// TestAWidthInInchesPicksThePipe: pipes told apart by their width in
// inches, said in digits, with a slash or in words, before or after the
// name; "pipe", which every pipe's name ends with, goes on with the name
// before it rather than naming another product; a width left out is
// asked about.
func TestAWidthInInchesPicksThePipe(t *testing.T) {
	pipe := func(sku, name string, aliases ...string) domain.Product {
		return domain.Product{SKU: sku, Name: name, Aliases: aliases, Unit: "length",
			PackSizes: []domain.PackSize{{Name: "bundle", Units: 10}}, Price: 12000}
	}
	ps := []domain.Product{
		pipe("PVC12", "PVC Pipe 1/2 inch 3m", "pvc aadha inch", "pvc 1/2"),
		pipe("PVC34", "PVC Pipe 3/4 inch 3m", "pvc pauna inch", "pvc 3/4"),
		pipe("PVC1", "PVC Pipe 1 inch 3m", "pvc ek inch", "pvc 1 inch"),
		pipe("CPVC12", "CPVC Pipe 1/2 inch 3m", "cpvc 1/2"),
		{SKU: "ELB12", Name: "Elbow 1/2 inch", Aliases: []string{"elbow"}, Unit: "piece", Price: 700},
		{SKU: "ELB34", Name: "Elbow 3/4 inch", Aliases: []string{"elbow"}, Unit: "piece", Price: 1100},
	}
	cs := []domain.Customer{{ID: "P04", Name: "Rathore Builders", Aliases: []string{"Rathore"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "Rathore 10 bundles of 3/4 inch pvc pipe", customer: "P04", items: map[string]int64{"PVC34": 100}},
		{text: "Rathore twenty lengths of half inch PVC pipe", customer: "P04", items: map[string]int64{"PVC12": 20}},
		{text: "Rathore 1 bundle pvc pipe 1 inch", customer: "P04", items: map[string]int64{"PVC1": 10}},
		{text: "Rathore 25 pauna inch elbow", customer: "P04", items: map[string]int64{"ELB34": 25}},
		{text: "Rathore 5 lambai cpvc aadha inch", customer: "P04", items: map[string]int64{"CPVC12": 5}},
		{text: "Rathore 3 bundle pvc pipe", customer: "P04", ask: []string{"PVC Pipe 1/2 inch 3m", "PVC Pipe 1 inch 3m", "PVC Pipe 3/4 inch 3m"}},
		{text: "Rathore 50 pipe cpvc aadha inch", customer: "P04", items: map[string]int64{"CPVC12": 50}},
	} {
		checkParse(t, p, c)
	}
	// Turned down for a name several pipes share, the one its size says.
	products := map[string]domain.Product{}
	for _, x := range ps {
		products[x.SKU] = x
	}
	dr, err := Price(cs[0], domain.PayCredit, []Item{{SKU: "CPVC12", Qty: 50, SaidQty: 50, SaidUnit: "length"}}, products)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := p.correction(dr, p.norm.(*intent.Router).Route(context.Background(), "cpvc nahi pvc chahiye aadha inch"))
	if got.question != "" || len(got.items) != 1 || got.items[0].SKU != "PVC12" || got.items[0].Qty != 50 {
		t.Errorf("cpvc turned down for half-inch pvc: items %v, question %q", got.items, got.question)
	}
}

// TestAWordTheAliasesEndWith: "tanki" ends the aliases of both water
// tanks, whose names say "Tank": said alone it names one of them, which
// a size or a word of one name settles, or a question asks.
func TestAWordTheAliasesEndWith(t *testing.T) {
	ps := []domain.Product{
		{SKU: "TANK500", Name: "Water Tank 500 L", Aliases: []string{"tank 500", "500 litre tanki", "chhoti tanki"}, Unit: "piece", Price: 340000},
		{SKU: "TANK1000", Name: "Water Tank 1000 L", Aliases: []string{"tank 1000", "1000 litre tanki", "badi tanki"}, Unit: "piece", Price: 620000},
		{SKU: "TAPPT", Name: "PTMT Tap", Aliases: []string{"plastic tonti"}, Unit: "piece", Price: 9000},
		{SKU: "TAPBR", Name: "Brass Bib Cock", Aliases: []string{"brass tonti"}, Unit: "piece", Price: 45000},
	}
	cs := []domain.Customer{{ID: "P05", Name: "Saini Plumbing Contractor", Aliases: []string{"Saini"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "Saini ko 2 tanki 500 litre cash", customer: "P05", payment: domain.PayCOD, items: map[string]int64{"TANK500": 2}},
		{text: "Saini ke liye 1 tanki 1000 litre aur 2 tanki 500 litre", customer: "P05", items: map[string]int64{"TANK1000": 1, "TANK500": 2}},
		{text: "Saini 4 tanki", customer: "P05", ask: []string{"Water Tank 500 L", "Water Tank 1000 L"}},
		// A word of one of their names just before it settles which.
		{text: "Saini 10 ptmt tonti", customer: "P05", items: map[string]int64{"TAPPT": 10}},
	} {
		checkParse(t, p, c)
	}
}

// TestAWordOfOneNameAndAnotherAlias: "tap" ends one tap's name (PTMT Tap)
// and the other's alias (brass tap): said alone it names either, and the
// order asks which; "ptmt tap" and "brass tap" each name one.
func TestAWordOfOneNameAndAnotherAlias(t *testing.T) {
	ps := []domain.Product{
		{SKU: "TAPPT", Name: "PTMT Tap", Aliases: []string{"ptmt tap", "plastic tap"}, Unit: "piece", Price: 9000},
		{SKU: "TAPBR", Name: "Brass Bib Cock", Aliases: []string{"brass tap", "bib cock"}, Unit: "piece", Price: 45000},
	}
	cs := []domain.Customer{{ID: "P06", Name: "New Jaipur Hardware", Aliases: []string{"Jaipur Hardware"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "New jaipur hardware 12 nag tap, upi se", customer: "P06", payment: domain.PayUPI, ask: []string{"PTMT Tap", "Brass Bib Cock"}},
		{text: "New jaipur hardware 12 brass tap", customer: "P06", items: map[string]int64{"TAPBR": 12}},
		{text: "New jaipur hardware 12 plastic tap", customer: "P06", items: map[string]int64{"TAPPT": 12}},
	} {
		checkParse(t, p, c)
	}
}

// TestTheRestOfANameAfterIt: a product called by its alias and then the
// rest of its name ("servo 20L bucket") is that product, not an unknown
// "bucket"; "x 3" after it is its quantity.
func TestTheRestOfANameAfterIt(t *testing.T) {
	ps := []domain.Product{
		{SKU: "SRV20", Name: "Servo 4T Xtra 20 Litre Bucket", Aliases: []string{"servo 20L"}, Unit: "bucket", Price: 495000},
		{SKU: "SRV1L", Name: "Servo 4T Xtra 1 Litre", Aliases: []string{"servo 1L"}, Unit: "bottle", Price: 27000},
	}
	cs := []domain.Customer{{ID: "L03", Name: "Gill Auto Parts", Aliases: []string{"Gill"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "Gill: servo 20L bucket x 3, credit", customer: "L03", payment: domain.PayCredit, items: map[string]int64{"SRV20": 3}},
		{text: "Gill 2 servo 1L xtra aur 1 servo 20L", customer: "L03", items: map[string]int64{"SRV1L": 2, "SRV20": 1}},
	} {
		checkParse(t, p, c)
	}
}

// TestAWeightInTheUnitOfAProductNamedByIt: grout kept by the kg whose
// name says "1 kg" is counted in kg ("100 kg grout" is 100), and a
// weight said of either of two loose spices kept by the kg is their
// count, with the question of which one left.
func TestAWeightInTheUnitOfAProductNamedByIt(t *testing.T) {
	ps := []domain.Product{
		{SKU: "GROUT1", Name: "Laticrete Tile Grout White 1 kg", Aliases: []string{"grout"}, Unit: "kg",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 20}}, Price: 6000},
		{SKU: "MIRCHPWD", Name: "Lal Mirch Powder Loose", Aliases: []string{"marchu"}, Unit: "kg", Price: 26000},
		{SKU: "MIRCHSBT", Name: "Lal Mirch Sabut Reshampatti Loose", Aliases: []string{"marchu"}, Unit: "kg", Price: 23000},
		{SKU: "GHEE15", Name: "Desi Ghee Tin 15kg", Aliases: []string{"ghee"}, Unit: "tin", Price: 900000},
	}
	cs := []domain.Customer{{ID: "T02", Name: "Patil Tiles", Aliases: []string{"patil"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "patil tiles 100 kg grout", customer: "T02", items: map[string]int64{"GROUT1": 100}},
		{text: "patil 2 carton grout", customer: "T02", items: map[string]int64{"GROUT1": 40}},
		{text: "patil 1 kilo marchu", customer: "T02", ask: []string{"Which product do you mean by \"marchu\" (1kg)"}},
		{text: "patil 2 ghee 15 kg", customer: "T02", items: map[string]int64{"GHEE15": 2}},
	} {
		checkParse(t, p, c)
	}
}

// TestAWeightOfTheOneKeptByIt: "10 kg karpoora" is ten of the camphor
// kept by the kg, not a size of the packet's; "20 kg mozzarella" is 20 of
// the kg a 2 kg block is kept in, and "20 kg cheese" 20 kg of whichever
// block is meant; "2 kg wala cheese" still names the block of that size.
func TestAWeightOfTheOneKeptByIt(t *testing.T) {
	ps := []domain.Product{
		{SKU: "KAPKG", Name: "Camphor (Karpoora) Loose per kg", Aliases: []string{"karpoora"}, Unit: "kg", Price: 85000},
		{SKU: "KAPPKT", Name: "Camphor Tablets (Karpoora) 50g Packet", Aliases: []string{"karpoora"}, Unit: "packet",
			PackSizes: []domain.PackSize{{Name: "dozen", Units: 12}}, Price: 5500},
		{SKU: "CHEESE", Name: "Processed Cheese Block (1 kg)", Aliases: []string{"cheese"}, Unit: "kg",
			PackSizes: []domain.PackSize{{Name: "block", Units: 1}}, Price: 42000},
		{SKU: "MOZZ", Name: "Mozzarella Cheese Block (2 kg)", Aliases: []string{"cheese", "mozzarella"}, Unit: "kg",
			PackSizes: []domain.PackSize{{Name: "block", Units: 2}}, Price: 38000},
	}
	cs := []domain.Customer{{ID: "K03", Name: "Srikanteshwara Temple Shop", Aliases: []string{"srikanteshwara"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "srikanteshwara ko 10 kg karpoora bhejo", customer: "K03", items: map[string]int64{"KAPKG": 10}},
		{text: "srikanteshwara ko karpoora 10 kilo bhejo", customer: "K03", items: map[string]int64{"KAPKG": 10}},
		{text: "srikanteshwara ko 30 packet karpoora", customer: "K03", items: map[string]int64{"KAPPKT": 30}},
		{text: "srikanteshwara 20 kg mozzarella", customer: "K03", items: map[string]int64{"MOZZ": 20}},
		{text: "srikanteshwara 5 block mozzarella", customer: "K03", items: map[string]int64{"MOZZ": 10}},
		{text: "srikanteshwara 2 kg wala cheese", customer: "K03", ask: []string{"How many Mozzarella Cheese Block (2 kg)?"}},
		{text: "srikanteshwara 20 kg cheese", customer: "K03", ask: []string{"Which product do you mean by \"cheese\" (20kg)"}},
	} {
		checkParse(t, p, c)
	}
}

// TestACountedNameWithTheAmountOfItsSize: "1 peti kitchen king 500",
// counted before the name, is the 500 g pack of the two; without a count
// before it the number is the count.
func TestACountedNameWithTheAmountOfItsSize(t *testing.T) {
	ps := []domain.Product{
		{SKU: "KK100", Name: "MDH Kitchen King 100g", Aliases: []string{"kitchen king"}, Unit: "packet",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 100}}, Price: 7600},
		{SKU: "KK500", Name: "MDH Kitchen King 500g", Aliases: []string{"kitchen king"}, Unit: "packet",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 20}}, Price: 34500},
	}
	cs := []domain.Customer{{ID: "S02", Name: "Patel Caterers", Aliases: []string{"patel"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "patel caterers 1 peti kitchen king 500", customer: "S02", items: map[string]int64{"KK500": 20}},
		{text: "patel caterers kitchen king 500", customer: "S02", ask: []string{"Which product do you mean by \"kitchen king\""}},
	} {
		checkParse(t, p, c)
	}
}

// TestAWordOfAddingInAProductsName: "clinic plus ta 20 ladi koro" sets
// Clinic Plus to 20 strips: the "plus" of its name adds nothing.
func TestAWordOfAddingInAProductsName(t *testing.T) {
	ps := []domain.Product{
		{SKU: "CPSACHET", Name: "Clinic Plus Shampoo Sachet Rs 2", Aliases: []string{"clinic plus"}, Unit: "sachet",
			PackSizes: []domain.PackSize{{Name: "strip", Units: 16}}, Price: 175},
		{SKU: "LUX100", Name: "Lux Soft Touch Soap 100g", Aliases: []string{"lux"}, Unit: "piece",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 72}}, Price: 3400},
	}
	cs := []domain.Customer{{ID: "B04", Name: "Annapurna Stores", Aliases: []string{"annapurna"}}}
	p := parserFor(t, ps, cs)
	dr := Draft{Customer: cs[0], Payment: domain.PayCOD, Lines: []domain.OrderLine{{SKU: "CPSACHET", Qty: 160}, {SKU: "LUX100", Qty: 72}}}
	text := "clinic plus ta 20 ladi koro"
	c, ok := p.correction(dr, intent.Decision{Text: text, Normalized: p.norm.Normalize(text)})
	if !ok || c.question != "" || len(c.items) != 2 || c.items[0].Qty != 320 || c.items[1].Qty != 72 {
		t.Fatalf("%q: %v %q %+v", text, ok, c.question, c.items)
	}
}

// TestAWeightAloneCountsWhatIsKeptInIt: "80 kilo" answers how many of
// bartan kept by the kg, as does "100 नहीं 120 किलो" (120), and "ना 3 किलो
// करो" sets the one line kept by the kg; a weight of a product kept by
// the piece, or beside a count not said to be wrong, does neither.
func TestAWeightAloneCountsWhatIsKeptInIt(t *testing.T) {
	ps := []domain.Product{
		{SKU: "HALDI", Name: "Haldi Powder Rajapuri Loose", Aliases: []string{"haldi", "हल्दी"}, Unit: "kg", Price: 17000},
		{SKU: "HING50", Name: "LG Bandhani Hing 50g", Aliases: []string{"hing"}, Unit: "dabbi", Price: 13800},
	}
	cs := []domain.Customer{{ID: "S04", Name: "Shree Khodiyar Provision Store", Aliases: []string{"khodiyar"}}}
	p := parserFor(t, ps, cs)
	for text, want := range map[string]int64{"80 kilo": 80, "ढाई किलो": 0, "2 bag 80 kilo": -1, "100 नहीं 120 किलो": 120, "100 kilo 20 bag": -1} {
		it, ok := p.weighed(p.norm.Normalize(text), "HALDI")
		switch {
		case want < 0 && ok:
			t.Errorf("%q with a count read as %d kg", text, it.Qty)
		case want > 0 && (!ok || it.Qty != want):
			t.Errorf("%q: %d (%v), want %d kg", text, it.Qty, ok, want)
		}
	}
	if _, ok := p.weighed(p.norm.Normalize("500 gram"), "HING50"); ok {
		t.Error("500 gram read as a count of hing kept by the dabbi")
	}
	dr := Draft{Customer: cs[0], Payment: domain.PayCOD, Lines: []domain.OrderLine{{SKU: "HALDI", Qty: 2}, {SKU: "HING50", Qty: 10}}}
	for _, text := range []string{"ना 3 किलो करो", "ના 3 કિલો કરો", "nahi 3 kilo karo"} {
		c, ok := p.correction(dr, intent.Decision{Text: text, Normalized: p.norm.Normalize(text)})
		if !ok || c.question != "" || c.items[0].Qty != 3 || c.items[1].Qty != 10 {
			t.Errorf("%q: %v %q %+v", text, ok, c.question, c.items)
		}
	}
}

// TestALineOfASizeAlone: a line that says only its size and count,
// after a line whose name other products share in other sizes, is the
// one of them in that size: "phenyl 1L 10 carton, 5L 5 carton", "4 inch
// lamp 20 pcs, 6 inch 10pcs". A size no product of that name comes in is
// still asked about.
func TestALineOfASizeAlone(t *testing.T) {
	ps := []domain.Product{
		{SKU: "PH1L", Name: "Phenyl 1L", Aliases: []string{"phenyl"}, Unit: "bottle", PackSizes: []domain.PackSize{{Name: "carton", Units: 12}}},
		{SKU: "PH5L", Name: "Phenyl 5L", Aliases: []string{"phenyl"}, Unit: "bottle", PackSizes: []domain.PackSize{{Name: "carton", Units: 4}}},
		{SKU: "LAMP4", Name: "Brass Lamp 4 inch", Aliases: []string{"lamp", "deepa"}, Unit: "piece"},
		{SKU: "LAMP6", Name: "Brass Lamp 6 inch", Aliases: []string{"lamp", "deepa"}, Unit: "piece"},
	}
	cs := []domain.Customer{{ID: "K07", Name: "Annapoorna Stores", Aliases: []string{"annapoorna"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "annapoorna phenyl 1L 10 carton, 5L 5 carton", customer: "K07", items: map[string]int64{"PH1L": 120, "PH5L": 20}},
		{text: "annapoorna 10 carton phenyl 1L aur 5 carton 5L", customer: "K07", items: map[string]int64{"PH1L": 120, "PH5L": 20}},
		{text: "annapoorna stors 4 inch lamp 20 pcs, 6 inch 10pcs", customer: "K07", items: map[string]int64{"LAMP4": 20, "LAMP6": 10}},
		{text: "annapoorna 4 inch lamp 20 pcs, 9 inch 10pcs", customer: "K07", items: map[string]int64{"LAMP4": 20},
			ask: []string{"Which product are the 10 pieces for?"}},
	} {
		checkParse(t, p, c)
	}
}
