package legacyerp

import (
	"strconv"
	"strings"
)

// family is a product line the distributor carries; its sizes and, when
// scented, its fragrances make the item master's rows.
type family struct {
	code, name, uom, group, hsn string
	gst                         int64 // percent
	price                       int64 // paise per base unit, first size
	scented                     bool
	alias                       string // the vendor's ShortNm for the first size
	sizes                       []size
}

type size struct {
	label, code string
	mult        float64 // price against the first size
	conv        int64   // base units in the AltUOM pack (a carton)
}

// The first fourteen families' first sizes are the demo distributor's
// catalog (internal/demo/data/catalog.csv), with its codes, prices and rates.
var families = []family{
	{"GC", "Glass Cleaner", "BTL", "CLEANERS", "3402", 18, 9200, true, "GC|colin|glass cleaner", []size{{"500ml", "500", 1, 24}, {"250ml", "250", 0.6, 48}, {"1L", "1L", 1.8, 12}, {"5L", "5L", 8, 4}}},
	{"PH", "Phenyl", "BTL", "CLEANERS", "3808", 18, 6500, true, "phenyl|phenyle|finyl", []size{{"1L", "1L", 1, 12}, {"500ml", "500", 0.55, 24}, {"5L", "5L", 4.5, 4}}},
	{"TC", "Toilet Cleaner", "BTL", "CLEANERS", "3402", 18, 8500, true, "TC|harpic", []size{{"500ml", "500", 1, 24}, {"1L", "1L", 1.8, 12}, {"200ml", "200", 0.45, 48}}},
	{"FC", "Floor Cleaner", "BTL", "CLEANERS", "3402", 18, 12000, true, "FC|lizol", []size{{"1L", "1L", 1, 12}, {"500ml", "500", 0.55, 24}, {"2L", "2L", 1.9, 6}, {"5L", "5L", 4.4, 4}}},
	{"DW", "Dishwash Liquid", "BTL", "KITCHEN", "3402", 18, 9900, true, "DW|vim liquid", []size{{"500ml", "500", 1, 24}, {"250ml", "250", 0.55, 48}, {"1L", "1L", 1.8, 12}, {"2L", "2L", 3.4, 6}}},
	{"DB", "Dishwash Bar", "BAR", "KITCHEN", "3401", 18, 1800, true, "DB|vim bar|bartan bar", []size{{"200g", "200", 1, 60}, {"500g", "500", 2.3, 24}, {"100g", "100", 0.55, 120}}},
	{"DP", "Detergent Powder", "PKT", "LAUNDRY", "3402", 18, 11000, true, "DP|surf|washing powder", []size{{"1kg", "1KG", 1, 20}, {"500g", "500", 0.55, 40}, {"2kg", "2KG", 1.9, 10}, {"5kg", "5KG", 4.6, 4}}},
	{"HW", "Handwash", "BTL", "PERSONAL", "3401", 18, 7000, true, "HW|dettol handwash", []size{{"200ml", "200", 1, 48}, {"750ml", "750", 2.6, 12}, {"5L", "5L", 14, 2}}},
	{"NB", "Naphthalene Balls", "PKT", "HOME", "2902", 18, 3000, false, "NB|naphthalene|goli", []size{{"100g", "100", 1, 100}, {"200g", "200", 1.9, 50}, {"500g", "500", 4.5, 20}}},
	{"AF", "Air Freshener", "CAN", "HOME", "3307", 18, 14500, true, "AF|odonil|room spray", []size{{"250ml", "250", 1, 24}, {"125ml", "125", 0.6, 48}}},
	{"BR", "Floor Broom", "PCS", "TOOLS", "9603", 12, 8000, false, "broom|jhadu", []size{{"", "01", 1, 12}, {"Soft", "02", 1.2, 12}, {"Hard", "03", 1.1, 12}}},
	{"MP", "Floor Mop", "PCS", "TOOLS", "9603", 12, 15000, false, "mop|pocha", []size{{"", "01", 1, 12}, {"Spin", "02", 5.5, 4}, {"Refill", "03", 0.5, 24}}},
	{"GB", "Garbage Bags", "ROLL", "HOME", "3923", 18, 6000, false, "GB|kachra bag", []size{{"30pc", "30", 1, 50}, {"15pc", "15", 0.55, 100}, {"Large 10pc", "L10", 1.2, 50}}},
	{"SP", "Bathing Soap", "BAR", "PERSONAL", "3401", 18, 2500, true, "soap|sabun", []size{{"75g", "75", 1, 144}, {"100g", "100", 1.3, 144}, {"150g", "150", 1.9, 72}}},
	{"DC", "Detergent Cake", "BAR", "LAUNDRY", "3401", 18, 1200, true, "", []size{{"150g", "150", 1, 100}, {"250g", "250", 1.6, 60}}},
	{"LD", "Liquid Detergent", "BTL", "LAUNDRY", "3402", 18, 18000, true, "", []size{{"1L", "1L", 1, 12}, {"500ml", "500", 0.55, 24}, {"2L", "2L", 1.9, 6}}},
	{"FS", "Fabric Softener", "BTL", "LAUNDRY", "3809", 18, 16000, true, "", []size{{"1L", "1L", 1, 12}, {"500ml", "500", 0.55, 24}}},
	{"BL", "Bleach", "BTL", "LAUNDRY", "2828", 18, 5500, false, "", []size{{"500ml", "500", 1, 24}, {"1L", "1L", 1.8, 12}}},
	{"SC", "Scrub Pad", "PCS", "KITCHEN", "6805", 18, 1500, false, "", []size{{"", "01", 1, 144}, {"3pc", "03", 2.7, 48}}},
	{"SW", "Steel Wool", "PCS", "KITCHEN", "7323", 18, 1000, false, "", []size{{"", "01", 1, 144}}},
	{"KT", "Kitchen Towel", "ROLL", "PAPER", "4818", 12, 4500, false, "", []size{{"2 roll", "2", 1, 24}, {"4 roll", "4", 1.9, 12}}},
	{"TR", "Toilet Roll", "ROLL", "PAPER", "4818", 12, 3000, false, "", []size{{"", "01", 1, 48}, {"4 roll", "04", 3.8, 12}}},
	{"TS", "Tissue Box", "PKT", "PAPER", "4818", 12, 5000, false, "", []size{{"100 pulls", "100", 1, 36}, {"200 pulls", "200", 1.8, 24}}},
	{"HS", "Hand Sanitizer", "BTL", "PERSONAL", "3808", 18, 9000, true, "", []size{{"100ml", "100", 1, 96}, {"500ml", "500", 3.8, 24}, {"5L", "5L", 30, 2}}},
	{"SD", "Surface Disinfectant", "BTL", "CLEANERS", "3808", 18, 19000, true, "", []size{{"500ml", "500", 1, 24}, {"1L", "1L", 1.8, 12}, {"5L", "5L", 8, 4}}},
	{"MC", "Mosquito Coil", "PKT", "HOME", "3808", 18, 3500, true, "", []size{{"10pc", "10", 1, 60}}},
	{"MR", "Mosquito Repellent Refill", "PCS", "HOME", "3808", 18, 7500, true, "", []size{{"45ml", "45", 1, 48}}},
	{"CS", "Cockroach Spray", "CAN", "HOME", "3808", 18, 21000, false, "", []size{{"400ml", "400", 1, 24}, {"200ml", "200", 0.55, 48}}},
	{"SH", "Shoe Polish", "PCS", "HOME", "3405", 18, 4000, false, "", []size{{"40g", "40", 1, 72}}},
	{"AG", "Agarbatti", "PKT", "POOJA", "3307", 5, 2000, true, "", []size{{"20 sticks", "20", 1, 144}, {"100 sticks", "100", 4.5, 48}}},
	{"CM", "Camphor", "PKT", "POOJA", "2914", 18, 3000, false, "", []size{{"50g", "50", 1, 100}, {"100g", "100", 1.9, 50}}},
	{"AL", "Aluminium Foil", "ROLL", "KITCHEN", "7607", 18, 9500, false, "", []size{{"9m", "9", 1, 48}, {"25m", "25", 2.4, 24}}},
	{"CF", "Cling Film", "ROLL", "KITCHEN", "3920", 18, 12000, false, "", []size{{"30m", "30", 1, 24}}},
	{"PN", "Paper Napkin", "PKT", "PAPER", "4818", 12, 4000, false, "", []size{{"50pc", "50", 1, 48}, {"100pc", "100", 1.8, 24}}},
	{"WW", "Wet Wipes", "PKT", "PERSONAL", "3401", 18, 8000, true, "", []size{{"30pc", "30", 1, 48}, {"80pc", "80", 2.2, 24}}},
	{"DT", "Dustbin", "PCS", "TOOLS", "3924", 18, 25000, false, "", []size{{"10L", "10L", 1, 6}, {"20L", "20L", 1.7, 4}}},
	{"BK", "Bucket", "PCS", "TOOLS", "3924", 18, 18000, false, "", []size{{"13L", "13L", 1, 6}, {"20L", "20L", 1.5, 4}}},
	{"TB", "Toilet Brush", "PCS", "TOOLS", "9603", 18, 9000, false, "", []size{{"", "01", 1, 24}}},
	{"WP", "Floor Wiper", "PCS", "TOOLS", "9603", 18, 14000, false, "", []size{{"12in", "12", 1, 12}, {"18in", "18", 1.3, 12}}},
	{"RG", "Rubber Gloves", "PCS", "TOOLS", "4015", 12, 7000, false, "", []size{{"M", "M", 1, 60}, {"L", "L", 1, 60}}},
}

var fragrances = []struct{ name, code string }{
	{"Lemon", "LM"}, {"Rose", "RS"}, {"Lavender", "LV"}, {"Jasmine", "JS"}, {"Pine", "PN"},
	{"Neem", "NM"}, {"Sandal", "SD"}, {"Citrus", "CT"}, {"Ocean", "OC"}, {"Mogra", "MG"},
	{"Orange", "OR"}, {"Floral", "FL"}, {"Mint", "MT"}, {"Aloe Vera", "AV"}, {"Green Apple", "GA"},
}

// product is one row of the catalog before a company's quirks.
type product struct {
	fam        *family
	sku, name  string
	alias      string
	conv       int64
	price, mrp int64 // paise
	second     bool  // a second code made for an existing product
}

// catalogOf is the first n products in a fixed order: every family's
// first size, then the other sizes, then fragrances, then promotional
// packs of all of them. The last three (when n allows) are second codes
// made for existing products, their names in capitals: the same name in
// two casings.
func catalogOf(n int) []product {
	seen := map[string]bool{}
	var out []product
	add := func(f *family, s size, fr, frCode, promo string) bool {
		if len(out) >= n {
			return false
		}
		sku := f.code + s.code + frCode + promo
		if seen[sku] {
			return true
		}
		seen[sku] = true
		parts := []string{f.name}
		if fr != "" {
			parts = append(parts, fr)
		}
		if s.label != "" {
			parts = append(parts, s.label)
		}
		name := strings.Join(parts, " ")
		if promo != "" {
			name += " Promo Pack " + strings.TrimPrefix(promo, "P")
		}
		price := roundTo(int64(float64(f.price)*s.mult), 50)
		p := product{fam: f, sku: sku, name: name, conv: s.conv, price: price, mrp: roundTo(price*5/4, 100)}
		if fr == "" && promo == "" && s == f.sizes[0] {
			p.alias = f.alias
		}
		out = append(out, p)
		return true
	}
	for round := 0; len(out) < n; round++ {
		promo := ""
		if round > 0 {
			promo = "P" + strconv.Itoa(round+1)
		}
		for i := range families {
			add(&families[i], families[i].sizes[0], "", "", promo)
		}
		for i := range families {
			for _, s := range families[i].sizes[1:] {
				add(&families[i], s, "", "", promo)
			}
		}
		for _, fr := range fragrances {
			for i := range families {
				if !families[i].scented {
					continue
				}
				for _, s := range families[i].sizes {
					add(&families[i], s, fr.name, fr.code, promo)
				}
			}
		}
	}
	if n >= 12 {
		for k, base := range []int{3, 5, 7} {
			b := out[base]
			d := b
			d.sku, d.name, d.alias, d.second = b.sku+"N", strings.ToUpper(b.name), "", true
			out[n-3+k] = d
		}
	}
	return out
}

func roundTo(p, step int64) int64 {
	p = (p + step/2) / step * step
	if p < step {
		return step
	}
	return p
}
