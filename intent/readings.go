package intent

// What a reading of a message found, to choose between two readings of
// it: as written, and with its words heard by their sound.

// namesIn counts the products and customers a reading found.
func namesIn(n Normalized) int {
	names, _ := nameCounts(n)
	return names
}

// namesMore reports that reading a found more products and customers
// than b, or as many with fewer of them shared by several: "12x18 लाइट"
// heard is the light tile where "12x18" named both.
func namesMore(a, b Normalized) bool {
	na, sa := nameCounts(a)
	nb, sb := nameCounts(b)
	if na != nb {
		return na > nb
	}
	return sa < sb
}

// nameCounts counts the products and customers a reading found, and
// those of them that name several products or customers.
func nameCounts(n Normalized) (names, shared int) {
	for _, e := range n.Entities {
		if e.Kind == EntityProduct || e.Kind == EntityCustomer {
			names++
			if len(e.IDs) > 1 {
				shared++
			}
		}
	}
	return names, shared
}
