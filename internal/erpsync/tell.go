package erpsync

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Topics of the owners' alerts: the ERP as a whole (it does not answer),
// and each entity (its rows, its query, its columns, the books' writes).
const sourceTopic = "erp"

func entityTopic(e Entity) string { return "erp:" + string(e) }

// maxAlertRows is how many bad rows the owners' message lists.
const maxAlertRows = 5

// tell tells the owners of a failure, once per topic and class.
func (s *Syncer) tell(ctx context.Context, f *Failure) {
	if s.Owners == nil {
		return
	}
	if f.Class == "source" {
		s.Owners.Tell(ctx, sourceTopic, f.Class, fmt.Sprintf("⚠️ Munshi cannot reach the ERP: %s. "+
			"It keeps answering from the books as they were last synced, and tries again on its own.", clip(s.redact(f.Err.Error()), 160)))
		return
	}
	w := what(f.Entity)
	var text string
	switch f.Class {
	case "rows":
		var b strings.Builder
		fmt.Fprintf(&b, "⚠️ The ERP's %s have rows Munshi cannot take, so it keeps the %s it had:", f.Entity, w)
		for i, p := range f.Problems {
			if i == maxAlertRows {
				break
			}
			fmt.Fprintf(&b, "\n• %s", clip(strings.TrimPrefix(p.String(), string(p.Entity)+" "), 200))
		}
		if more := f.Count - min(maxAlertRows, len(f.Problems)); more > 0 {
			fmt.Fprintf(&b, "\n• … and %d more", more)
		}
		b.WriteString("\nNothing of them was written. Once they are put right in the ERP, Munshi takes them at the next sync.")
		text = b.String()
	case "columns":
		text = fmt.Sprintf("⚠️ The ERP query for %s no longer returns what the mapping reads (%s), so Munshi keeps the %s it has. "+
			"`munshi sync --check` shows what to change.", f.Entity, clip(summary(f.Problems, f.Count, 2), 200), w)
	case "query":
		text = fmt.Sprintf("⚠️ The ERP refuses the query for %s: %s. Munshi keeps the %s it has; "+
			"`munshi sync --check` shows what to change.", f.Entity, clip(s.redact(f.Err.Error()), 160), w)
	case "empty":
		text = fmt.Sprintf("⚠️ The ERP query for %s returned nothing, so Munshi keeps the %s it has rather than mark it all inactive.", f.Entity, w)
	default:
		text = fmt.Sprintf("⚠️ Munshi could not write the ERP's %s into its books: %s. It tries again at the next sync.", w, clip(s.redact(f.Err.Error()), 160))
	}
	s.Owners.Tell(ctx, entityTopic(f.Entity), f.Class, text)
}

func (s *Syncer) clear(ctx context.Context, topic, text string) {
	if s.Owners != nil {
		s.Owners.Clear(ctx, topic, text)
	}
}

// maxFlagLines is how many entries one message to accounts lists.
const maxFlagLines = 15

// flag marks the provisional entries older than settle_days and tells
// accounts (the owners, when there is no one in accounts) in the same
// transaction.
func (s *Syncer) flag(ctx context.Context, now time.Time) (int, error) {
	days := s.settleDays()
	cutoff := now.AddDate(0, 0, -days)
	people, err := s.Books.UsersByRole(ctx, domain.RoleAccounts)
	if err == nil && len(people) == 0 {
		people, err = s.Books.UsersByRole(ctx, domain.RoleOwner)
	}
	if err != nil {
		return 0, fmt.Errorf("erpsync: flag unsettled: %w", err)
	}
	loc := s.Mapping.Location()
	flagged, err := s.Books.FlagUnsettled(ctx, cutoff, func(ps []Provisional) []domain.Effect {
		if len(ps) == 0 {
			return nil
		}
		text := unsettledText(ps, days, loc)
		var out []domain.Effect
		for _, u := range people {
			out = append(out, domain.WhatsApp(domain.Outbound{To: u.Phone, Body: text}))
		}
		return out
	})
	if err != nil {
		return 0, fmt.Errorf("erpsync: flag unsettled: %w", err)
	}
	return len(flagged), nil
}

// unsettledText is the message to accounts about entries the ERP still
// does not show.
func unsettledText(ps []Provisional, days int, loc *time.Location) string {
	var b strings.Builder
	fmt.Fprintf(&b, "⏳ Recorded in the chat but still not in the ERP after %d days:", days)
	for i, p := range ps {
		if i == maxFlagLines {
			fmt.Fprintf(&b, "\n• … and %d more", len(ps)-i)
			break
		}
		b.WriteString("\n• " + describeProvisional(p, loc))
	}
	b.WriteString("\nPlease enter them in the ERP, or correct them in Munshi: until then the stock and dues Munshi shows count them.")
	return b.String()
}

func describeProvisional(p Provisional, loc *time.Location) string {
	abs := func(n int64) int64 {
		if n < 0 {
			return -n
		}
		return n
	}
	amount := domain.Paise(abs(int64(p.Amount)))
	var s string
	switch p.Kind {
	case "payment":
		s = fmt.Sprintf("payment of %s from %s", amount, p.CustomerID)
	case "order":
		s = fmt.Sprintf("credit order of %s for %s", amount, p.CustomerID)
	case "receipt":
		s = fmt.Sprintf("%d %s received", abs(p.Qty), p.SKU)
	case "delivery":
		s = fmt.Sprintf("delivery of %d %s to %s", abs(p.Qty), p.SKU, p.CustomerID)
	default:
		s = p.Kind
	}
	if p.Reference != "" {
		s += " (" + p.Reference + ")"
	}
	return s + ", " + p.At.In(loc).Format("2 Jan")
}
