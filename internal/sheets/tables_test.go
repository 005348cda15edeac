package sheets_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/intake"
	"github.com/munshi/munshi/internal/sheets"
	"github.com/munshi/munshi/internal/sheets/sheetstest"
	"github.com/munshi/munshi/internal/store"
)

var catalogHeader = []string{"sku", "name", "aliases", "unit", "pack_sizes", "price", "gst_percent", "stock_ready", "stock_wip"}

func client(t *testing.T, fake *sheetstest.Server) *sheets.Client {
	t.Helper()
	c, err := sheets.New(context.Background(), sheets.Config{SpreadsheetID: sheetID, APIURL: fake.URL, RequestsPerMinute: 60000})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCatalogTabReadByTheFileRules(t *testing.T) {
	fake := sheetstest.Start(t, sheetID)
	fake.SetTab("Catalog", [][]string{
		catalogHeader,
		{"GC500", "Glass Cleaner 500ml", "GC|colin|ग्लास क्लीनर", "bottle", "carton=24|box=6", "92.00", "18", "2400", "480"},
		{}, // a blank row
		{"PH1L", "फिनाइल 1 लीटर", "phenyl", "bottle", "carton=12", "65", "18"}, // the empty cells at the end left out
	})
	ps, err := client(t, fake).Catalog(context.Background(), "Catalog")
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].Price != 9200 || ps[1].Name != "फिनाइल 1 लीटर" || ps[1].StockReady != 0 ||
		len(ps[0].Aliases) != 3 || ps[0].Aliases[2] != "ग्लास क्लीनर" {
		t.Errorf("read %+v", ps)
	}
}

func TestBadCellsAreRefusedByRow(t *testing.T) {
	fake := sheetstest.Start(t, sheetID)
	rows := [][]string{
		catalogHeader,
		{"GC500", "Glass Cleaner", "", "bottle", "", "92", "18", "1", "0"},
		{"BAD1", "Evil\u202eName", "", "bottle", "", "1", "18", "1", "0"},          // row 3: a direction override
		{"BAD2", "Two\nLines", "", "bottle", "", "1", "18", "1", "0"},              // row 4: a line break
		{"BAD3", strings.Repeat("x", 3000), "", "bottle", "", "1", "18", "1", "0"}, // row 5: oversized
		{"BAD4", "=HYPERLINK(\"x\")", "ok", "bottle", "", "-5", "18", "1", "0"},    // row 6: a reply word, a negative price
		{"BAD5", "Extra", "", "bottle", "", "1", "18", "1", "0", "surprise"},       // row 7: a cell past the header
	}
	fake.SetTab("Catalog", rows)
	_, err := client(t, fake).Catalog(context.Background(), "Catalog")
	var r *intake.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("err = %v, want a refusal", err)
	}
	lines := map[int]bool{}
	for _, p := range r.Problems {
		lines[p.Line] = true
	}
	for _, row := range []int{3, 4, 5, 6, 7} {
		if !lines[row] {
			t.Errorf("row %d not named in %v", row, err)
		}
	}
	if lines[2] {
		t.Errorf("the good row 2 is named: %v", err)
	}
	if !strings.Contains(err.Error(), `sheets: catalog tab "Catalog" refused, nothing imported`) || !strings.Contains(err.Error(), "row 3: ") {
		t.Errorf("refusal reads %q", err)
	}
}

// TestRandomCellsNeverPanic throws random text — unicode, controls,
// quotes, huge cells, ragged rows — at both readers.
func TestRandomCellsNeverPanic(t *testing.T) {
	fake := sheetstest.Start(t, sheetID)
	c := client(t, fake)
	rnd := rand.New(rand.NewPCG(23, 1))
	alphabet := []rune("aZ09 ,|=.-_'\"\\\t\r\n\u0000\u200b\u200d\u202e\ufeff\U000e0041राजेश🙏\uFFFD")
	cell := func() string {
		n := rnd.IntN(12)
		if rnd.IntN(40) == 0 {
			n = 5000
		}
		var b strings.Builder
		for range n {
			b.WriteRune(alphabet[rnd.IntN(len(alphabet))])
		}
		return b.String()
	}
	for round := range 200 {
		rows := [][]string{catalogHeader}
		if round%2 == 1 {
			rows[0] = []string{"id", "name", "aliases", "phone", "segment", "credit_limit", "outstanding", "payment_modes"}
		}
		if round%17 == 0 {
			rows[0] = []string{cell(), cell()}
		}
		for range rnd.IntN(8) {
			row := make([]string, rnd.IntN(12))
			for i := range row {
				row[i] = cell()
			}
			rows = append(rows, row)
		}
		fake.SetTab("T", rows)
		if round%2 == 0 {
			c.Catalog(context.Background(), "T")
		} else {
			c.Customers(context.Background(), "T")
		}
	}
}

func TestMissingTab(t *testing.T) {
	fake := sheetstest.Start(t, sheetID)
	_, err := client(t, fake).Customers(context.Background(), "Customers")
	var no sheets.NoTab
	if !errors.As(err, &no) || no.Tab != "Customers" {
		t.Errorf("err = %v, want NoTab", err)
	}
}

// ownersBook is the books the sync writes to, with owners to tell.
func syncBooks(t *testing.T) store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "sync.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.UpsertUsers(context.Background(), []domain.User{{Phone: "+919900000001", Name: "Vikram", Role: domain.RoleOwner}}); err != nil {
		t.Fatal(err)
	}
	return st
}

func newSync(st store.Store, c *sheets.Client) *sheets.Sync {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	a := audit.New(st, nil, quiet)
	return &sheets.Sync{Sheet: c, Logger: quiet, Intake: intake.Intake{Books: st, Audit: a, Actor: "sheets"},
		Owners: &sheets.Owners{Books: st, Audit: a, Logger: quiet}}
}

// toOwners is the WhatsApp messages queued for the owner.
func toOwners(t *testing.T, st store.Store) []string {
	t.Helper()
	msgs, err := st.OutboxMessages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range msgs {
		if m.Kind == domain.EffectWhatsApp && m.To == "+919900000001" {
			out = append(out, string(m.Payload))
		}
	}
	return out
}

func TestSyncTakesChangesAndTellsOnce(t *testing.T) {
	ctx := context.Background()
	fake := sheetstest.Start(t, sheetID)
	st := syncBooks(t)
	c := client(t, fake)
	good := [][]string{catalogHeader, {"GC500", "Glass Cleaner", "GC", "bottle", "carton=24", "92", "18", "2400", "0"}}
	fake.SetTab(sheets.CatalogTab, good)
	s := newSync(st, c)
	taken := 0
	s.Taken = func(context.Context) { taken++ }
	s.Run(ctx)
	v1, _ := st.CatalogVersion(ctx)
	s.Run(ctx) // unchanged: not taken again
	if v2, _ := st.CatalogVersion(ctx); v2 != v1 || taken != 1 {
		t.Errorf("an unchanged tab was taken again (version %s → %s, taken %d)", v1, v2, taken)
	}
	bad := [][]string{catalogHeader, {"GC500", "Glass Cleaner", "GC", "bottle", "carton=24", "ninety", "18", "2400", "0"}}
	fake.SetTab(sheets.CatalogTab, bad)
	for range 5 {
		s.Run(ctx)
	}
	if told := toOwners(t, st); len(told) != 1 || !strings.Contains(told[0], `row 2: price \"ninety\"`) {
		t.Fatalf("owners told %q; want once, naming row 2", told)
	}
	ps, _ := st.Products(ctx)
	if ps[0].Price != 9200 {
		t.Errorf("a bad tab changed the price to %v", ps[0].Price)
	}
	// A restart does not tell the same problem again.
	s2 := newSync(st, c)
	s2.Run(ctx)
	if told := toOwners(t, st); len(told) != 1 {
		t.Errorf("after a restart the owners were told %d times", len(told))
	}
	// Another problem is told; the fix is told once.
	bad[1][6] = "180"
	fake.SetTab(sheets.CatalogTab, bad)
	s2.Run(ctx)
	fake.SetTab(sheets.CatalogTab, [][]string{catalogHeader, {"GC500", "Glass Cleaner", "GC", "bottle", "carton=24", "95", "18", "1", "0"}})
	s2.Run(ctx)
	s2.Run(ctx)
	told := toOwners(t, st)
	if len(told) != 3 || !strings.Contains(told[2], "reads well again") {
		t.Errorf("owners told %q; want the first problem, the second, and the fix", told)
	}
	ps, _ = st.Products(ctx)
	if ps[0].Price != 9500 || ps[0].StockReady != 2400 {
		t.Errorf("after the fix %+v; want the new price and the books' stock", ps[0])
	}
}
