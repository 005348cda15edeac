package domain

import (
	"fmt"
	"strings"
)

// Tally counts what an import did with the rows it was given: added,
// changed, or found as they already were.
type Tally struct {
	Added, Updated, Unchanged int
}

// HistoryImport is what one import of history did with its orders and
// payments.
type HistoryImport struct {
	Orders, Payments Tally
}

// HistoryClash refuses history that would overwrite what Munshi recorded
// itself: orders it made (or holds as drafts) under the same id, and
// payments whose reference Munshi recorded for that customer with another
// amount, mode or date. Payments are named by their index in the import.
type HistoryClash struct {
	Orders   []string
	Payments []int
}

func (c *HistoryClash) Error() string {
	var parts []string
	if len(c.Orders) > 0 {
		parts = append(parts, "orders "+strings.Join(c.Orders, ", ")+" were made through Munshi")
	}
	if len(c.Payments) > 0 {
		parts = append(parts, fmt.Sprintf("%d payments carry references Munshi recorded differently", len(c.Payments)))
	}
	return "history clashes with Munshi's own records: " + strings.Join(parts, "; ")
}
