package intent

// The words of customers' names that name no one: what kind of shop, its
// trade, a title. A name is also read without them.

// businessWords end customer names without naming anyone, so "Rajesh
// Kirana Store" is also called "Rajesh".
var businessWords = map[string]bool{
	"store": true, "stores": true, "kirana": true, "general": true, "traders": true,
	"trader": true, "trading": true, "supermart": true, "supermarket": true, "mart": true,
	"medical": true, "medicals": true, "medicos": true, "enterprises": true, "enterprise": true,
	"agency": true, "agencies": true, "brothers": true, "bros": true, "sons": true, "and": true,
	"co": true, "company": true, "pvt": true, "ltd": true, "provision": true, "provisions": true,
	"shop": true, "bhandar": true, "emporium": true, "depot": true, "distributors": true,
	"wholesale": true, "retail": true, "corporation": true, "industries": true, "centre": true,
	"center": true, "mall": true, "bazaar": true, "bazar": true, "mandi": true,
}

// tradeNames end customer names by saying the trade, and are left out of
// their short forms as businessWords are: "Ganesh Plumbing Works" is
// also Ganesh, "Gill Auto Parts" Gill. Routing does not read them.
var tradeNames = map[string]bool{
	"hardware": true, "sanitary": true, "plumbing": true, "works": true, "paints": true, "motors": true,
	"garage": true, "builders": true, "auto": true, "parts": true, "spares": true,
}

// titles begin customer names without naming anyone: "Shree Ganesh
// Sanitary" is also Ganesh's.
var titles = map[string]bool{"shree": true, "shri": true, "sri": true}

// placeWords say what kind of place a customer is when written after
// their name, and belong to it: "Shivam hotel" is Hotel Shivam, "Sharma
// store" Sharma General Store. ("and", "co" join or end other names.)
var placeWords = func() map[string]bool {
	m := map[string]bool{"hotel": true}
	for w := range businessWords {
		if w != "and" && w != "co" && w != "company" {
			m[w] = true
		}
	}
	return m
}()
