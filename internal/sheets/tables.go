package sheets

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/munshi/munshi/internal/csvimport"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/intake"
)

// The tabs a running server pulls with MUNSHI_SHEETS_SYNC, with the
// columns of the catalog and customers files.
const (
	CatalogTab   = "Catalog"
	CustomersTab = "Customers"
)

// Source is how refusals name rows read from a Sheet.
const Source = "sheets"

// NoTab is a tab the spreadsheet does not have.
type NoTab struct{ Tab string }

func (e NoTab) Error() string {
	return fmt.Sprintf("sheets: the spreadsheet has no tab %q (tab names are matched exactly)", e.Tab)
}

// Table reads a whole tab: its first row is the header, each other row
// keeps its number in the sheet.
func (c *Client) Table(ctx context.Context, tab string) (csvimport.Table, error) {
	rows, err := c.Values(ctx, A1(tab, ""))
	var e *Error
	if errors.As(err, &e) && e.Status == http.StatusBadRequest && strings.Contains(e.Message, "Unable to parse range") {
		return csvimport.Table{}, NoTab{tab}
	}
	if err != nil {
		return csvimport.Table{}, err
	}
	t := csvimport.Table{Source: Source, Name: tab, HeaderLine: 1}
	if len(rows) > 0 {
		t.Header = rows[0]
	}
	for i := 1; i < len(rows); i++ {
		t.Rows = append(t.Rows, csvimport.TableRow{Line: i + 1, Cells: rows[i]})
	}
	return t, nil
}

// Catalog reads a tab with the catalog file's columns, by the file's rules.
func (c *Client) Catalog(ctx context.Context, tab string) ([]domain.Product, error) {
	t, err := c.Table(ctx, tab)
	if err != nil {
		return nil, err
	}
	return csvimport.ReadCatalogTable(t)
}

// Customers reads a tab with the customers file's columns.
func (c *Client) Customers(ctx context.Context, tab string) ([]domain.Customer, error) {
	t, err := c.Table(ctx, tab)
	if err != nil {
		return nil, err
	}
	return csvimport.ReadCustomersTable(t)
}

// Sync pulls the Catalog and Customers tabs into the books on a schedule
// (MUNSHI_SHEETS_SYNC), through intake as `munshi import --sheet` does,
// except that what the books already hold keeps its stock and its
// outstanding (intake.SyncCatalog). A tab is taken only when it changed
// since it was last taken. A tab with a bad row is not taken at all: the
// books keep what they had, and the owners are told once which rows are
// wrong, not at every pull.
type Sync struct {
	Sheet  *Client
	Intake intake.Intake
	Owners *Owners // optional
	Logger *slog.Logger
	// Every is the interval, for the owners' message.
	Every time.Duration
	// Taken is called after a tab was taken into the books: the catalog
	// watcher's Check, so the router reads the new names at once.
	Taken func(ctx context.Context)

	mu      sync.Mutex
	taken   map[string]string // the fingerprint of each tab as last taken
	missing map[string]bool   // tabs found missing, logged once
}

// Run pulls both tabs once.
func (s *Sync) Run(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.taken == nil {
		s.taken, s.missing = map[string]string{}, map[string]bool{}
	}
	took := false
	for _, tab := range []string{CatalogTab, CustomersTab} {
		if s.pull(ctx, tab) {
			took = true
		}
	}
	if took && s.Taken != nil {
		s.Taken(ctx)
	}
}

// pull takes one tab into the books if it changed, and says whether it did.
func (s *Sync) pull(ctx context.Context, tab string) bool {
	topic := "tab " + tab
	t, err := s.Sheet.Table(ctx, tab)
	var no NoTab
	switch {
	case errors.As(err, &no):
		if !s.missing[tab] {
			s.missing[tab] = true
			s.Logger.Info("sheets: no such tab to pull; skipped until it exists", "tab", tab)
		}
		return false
	case err != nil:
		var e *Error
		if errors.As(err, &e) && e.Held() && s.Owners != nil {
			s.Owners.Tell(ctx, topic, "access "+e.Code(), fmt.Sprintf("⚠️ Munshi cannot read the %s tab of the Google Sheet: %s. "+
				"It keeps the %s it has.", tab, e.Reason(), what(tab)))
		}
		s.Logger.Warn("sheets: tab not read; the books keep what they have", "tab", tab, "err", err)
		return false
	}
	delete(s.missing, tab)
	fp := fingerprint(t)
	if s.taken[tab] == fp {
		s.cleared(ctx, topic, tab) // put back as it was last taken
		return false
	}
	var taken intake.Taken
	if tab == CatalogTab {
		var ps []domain.Product
		if ps, err = csvimport.ReadCatalogTable(t); err == nil {
			taken, err = s.Intake.SyncCatalog(ctx, "sheet tab "+tab, ps)
		}
	} else {
		var cs []domain.Customer
		if cs, err = csvimport.ReadCustomersTable(t); err == nil {
			taken, err = s.Intake.SyncCustomers(ctx, "sheet tab "+tab, cs)
		}
	}
	var refusal *intake.Refusal
	switch {
	case errors.As(err, &refusal):
		s.Logger.Warn("sheets: tab refused; the books keep what they had", "tab", tab, "problems", len(refusal.Problems)+refusal.More)
		if s.Owners != nil {
			s.Owners.Tell(ctx, topic, problemPrint(refusal), s.refusedText(tab, refusal))
		}
		return false
	case err != nil:
		s.Logger.Error("sheets: tab not taken into the books", "tab", tab, "err", err)
		return false
	}
	s.taken[tab] = fp
	s.Logger.Info("sheets: tab taken into the books", "tab", tab, "rows", taken.Rows)
	s.cleared(ctx, topic, tab)
	return true
}

// cleared tells the owners, if they were told of a problem with the tab,
// that it reads well again.
func (s *Sync) cleared(ctx context.Context, topic, tab string) {
	if s.Owners != nil {
		s.Owners.Clear(ctx, topic, fmt.Sprintf("✅ The %s tab of the Google Sheet reads well again, and the books hold what it says.", tab))
	}
}

func what(tab string) string {
	if tab == CatalogTab {
		return "catalog"
	}
	return "customer list"
}

// maxAlertProblems is how many bad rows the owners' message lists.
const maxAlertProblems = 10

// refusedText is the owners' message about a refused tab.
func (s *Sync) refusedText(tab string, r *intake.Refusal) string {
	var b strings.Builder
	fmt.Fprintf(&b, "⚠️ The %s tab of the Google Sheet has rows Munshi cannot take, so it keeps the %s it had:", tab, what(tab))
	n := 0
	for _, p := range r.Problems {
		if n == maxAlertProblems {
			break
		}
		reason := []rune(p.Reason)
		if len(reason) > 160 {
			reason = append(reason[:159], '…')
		}
		if p.Line > 0 {
			fmt.Fprintf(&b, "\n• row %d: %s", p.Line, string(reason))
		} else {
			fmt.Fprintf(&b, "\n• %s", string(reason))
		}
		n++
	}
	if more := len(r.Problems) - n + r.More; more > 0 {
		fmt.Fprintf(&b, "\n• … and %d more", more)
	}
	when := "at the next pull"
	if s.Every > 0 {
		when = "within " + short(s.Every)
	}
	fmt.Fprintf(&b, "\nNothing of the tab was taken. Once the rows are put right Munshi takes it %s.", when)
	return b.String()
}

// fingerprint identifies a tab's contents.
func fingerprint(t csvimport.Table) string {
	h := sha256.New()
	json.NewEncoder(h).Encode([]any{t.Header, t.Rows})
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// problemPrint identifies a refusal's problems: the same bad rows for the
// same reasons are one problem however often the tab is pulled.
func problemPrint(r *intake.Refusal) string {
	h := sha256.New()
	json.NewEncoder(h).Encode([]any{r.Problems, r.More})
	return "rows " + hex.EncodeToString(h.Sum(nil)[:12])
}

// short writes a duration as people write it: 10m, not 10m0s.
func short(d time.Duration) string {
	s := d.String()
	if t, ok := strings.CutSuffix(s, "m0s"); ok {
		s = t + "m"
	}
	if t, ok := strings.CutSuffix(s, "h0m"); ok {
		s = t + "h"
	}
	return s
}
