package storetest

import (
	"errors"
	"io"
	"log/slog"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/orders"
)

// draftNamed finds a draft's reference in a text.
var draftNamed = regexp.MustCompile(`\bD-\d+`)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// words normalises text without a catalog's vocabulary. The suite never
// parses orders; the parser only names products in notifications.
type words struct{}

func (words) Normalize(text string) intent.Normalized { return intent.Normalize(text) }

// accountsMail is where the suite's orders are mailed.
const accountsMail = "accounts@distributor.example"

// service is order taking over s, as Munshi wires it, on the suite's clock.
func service(t *testing.T, s store.Store, c *Clock) *orders.Service {
	t.Helper()
	ps, err := s.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := s.Customers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return &orders.Service{Books: s, Parser: orders.NewParser(words{}, ps, cs), Audit: audit.New(s, nil, quiet),
		Logger: quiet, MinimumOrder: 100000, AccountsEmail: []string{accountsMail}, Now: c.Now}
}

// show prices items for a customer against the books as they are, judges
// the draft and stores it as the one its placer was shown last: what
// orders.Service does with an order message.
func show(t *testing.T, s store.Store, c *Clock, placer, customer string, pay domain.PaymentMode, items ...orders.Item) orders.Draft {
	t.Helper()
	skus := make([]string, len(items))
	for i, it := range items {
		skus[i] = it.SKU
	}
	snap, err := s.Snapshot(ctx, customer, skus)
	if err != nil {
		t.Fatal(err)
	}
	snap.MinimumOrder = 100000
	d, err := orders.Price(snap.Customer, pay, items, snap.Products)
	if err != nil {
		t.Fatal(err)
	}
	d = orders.Judge(ctx, d, snap)
	if d.ID, err = s.NewDraftID(ctx); err != nil {
		t.Fatal(err)
	}
	d.PlacedBy, d.Status, d.CreatedAt = placer, orders.DraftOpen, c.Now()
	if err := s.SaveDraft(ctx, d); err != nil {
		t.Fatal(err)
	}
	return d
}

// draftStatus reads where a draft stands.
func draftStatus(t *testing.T, s store.Store, id string) orders.DraftStatus {
	t.Helper()
	d, found, err := s.DraftByID(ctx, id)
	if err != nil || !found {
		t.Fatalf("DraftByID(%s) = %v, %v", id, found, err)
	}
	return d.Status
}

// placed reports whether the draft is in the books as an order.
func placed(t *testing.T, s store.Store, draft string) bool {
	return orderOf(t, s, draft) != ""
}

// orderOf is the number of the order the draft was placed as, "" while it
// is not placed; the order must be in the books, committed.
func orderOf(t *testing.T, s store.Store, draft string) string {
	t.Helper()
	d, found, err := s.DraftByID(ctx, draft)
	if err != nil || !found {
		t.Fatalf("DraftByID(%s) = %v, %v", draft, found, err)
	}
	if d.OrderID == "" {
		if d.Status == orders.DraftCommitted {
			t.Fatalf("draft %s is committed without an order number", draft)
		}
		return ""
	}
	o, found, err := s.Order(ctx, d.OrderID)
	if err != nil || !found || o.Status != domain.OrderCommitted || d.Status != orders.DraftCommitted {
		t.Fatalf("draft %s (%s) placed as %s: order %+v found %v, %v; want it committed", draft, d.Status, d.OrderID, o, found, err)
	}
	return d.OrderID
}

func outboxTo(t *testing.T, s store.Store) map[string]int {
	t.Helper()
	rows, err := s.OutboxMessages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	to := map[string]int{}
	for _, r := range rows {
		to[r.Kind+" "+r.To]++
	}
	return to
}

func testDrafts(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	first := show(t, s, c, ravi, "C01", domain.PayCOD, orders.Item{SKU: "GC500", Qty: 120, SaidQty: 5, SaidUnit: "carton"})
	got, found, err := s.LatestDraft(ctx, ravi, T0.Add(-time.Minute))
	if err != nil || !found {
		t.Fatalf("LatestDraft = %v, %v", found, err)
	}
	first.CreatedAt, got.CreatedAt = first.CreatedAt.UTC(), got.CreatedAt.UTC()
	if !reflect.DeepEqual(got, first) {
		t.Fatalf("the draft as stored:\n got %+v\nwant %+v", got, first)
	}
	if _, found, _ := s.LatestDraft(ctx, ravi, T0.Add(time.Second)); found {
		t.Error("LatestDraft found a draft older than since")
	}
	if _, found, _ := s.LatestDraft(ctx, sunil, T0.Add(-time.Hour)); found {
		t.Error("LatestDraft found another person's draft")
	}
	// Sunil's draft, then a newer one of Ravi's: Ravi's first is replaced,
	// Sunil's stays open.
	other := show(t, s, c, sunil, "C03", domain.PayCOD, orders.Item{SKU: "BR01", Qty: 24})
	c.Advance(time.Minute)
	second := show(t, s, c, ravi, "C01", domain.PayCredit, orders.Item{SKU: "BR01", Qty: 12})
	if latest, _, _ := s.LatestDraft(ctx, ravi, T0); latest.ID != second.ID || latest.Status != orders.DraftOpen {
		t.Fatalf("latest of Ravi = %s %s, want %s open", latest.ID, latest.Status, second.ID)
	}
	if st := draftStatus(t, s, first.ID); st != orders.DraftReplaced {
		t.Errorf("first draft %s, want replaced: only the last one shown can be approved", st)
	}
	if st := draftStatus(t, s, other.ID); st != orders.DraftOpen {
		t.Errorf("another person's draft %s, want open", st)
	}
	if _, found, err := s.DraftByID(ctx, "ORD-404"); err != nil || found {
		t.Errorf("DraftByID(ORD-404) = %v, %v", found, err)
	}
	// A draft has its own reference, not an order number.
	if !domain.IsDraftRef(first.ID) || !domain.IsDraftRef(second.ID) || first.ID == second.ID || other.ID == second.ID {
		t.Errorf("draft references %s, %s, %s; want distinct D-… references", first.ID, other.ID, second.ID)
	}

	// A move that does not happen writes nothing.
	told := domain.WhatsApp(domain.Outbound{To: ravi, Body: "❌ Order rejected"})
	moved, err := s.MoveDraft(ctx, orders.DraftMove{ID: second.ID, From: []orders.DraftStatus{orders.DraftPendingApproval},
		To: orders.DraftRejected, By: owner, Effects: []domain.Effect{told}})
	if err != nil || moved {
		t.Fatalf("MoveDraft from the wrong status = %v, %v", moved, err)
	}
	if n, _ := s.OutboxDepth(ctx); n != 0 {
		t.Fatalf("a move that did not happen wrote %d effects", n)
	}
	// A move that replaces the draft: the next reader sees the new one.
	fresh := second
	fresh.Basis.Outstanding++
	fresh.Fingerprint = orders.Fingerprint(fresh)
	asks := domain.WhatsApp(domain.Outbound{To: owner, Body: "🔔 Approval needed"})
	moved, err = s.MoveDraft(ctx, orders.DraftMove{ID: second.ID, From: []orders.DraftStatus{orders.DraftOpen},
		To: orders.DraftPendingApproval, By: ravi, Draft: &fresh, Effects: []domain.Effect{asks}})
	if err != nil || !moved {
		t.Fatalf("MoveDraft = %v, %v", moved, err)
	}
	now, _, _ := s.DraftByID(ctx, second.ID)
	if now.Status != orders.DraftPendingApproval || now.Fingerprint != fresh.Fingerprint || now.Basis != fresh.Basis {
		t.Errorf("after the move: %+v", now)
	}
	if got := outboxTo(t, s); !reflect.DeepEqual(got, map[string]int{"whatsapp " + owner: 1}) {
		t.Errorf("outbox after the move = %v, want the owner asked once", got)
	}
}

func testSnapshot(t *testing.T, s store.Store, _ *Clock) {
	seed(t, s)
	past, _ := history()
	if err := s.AddHistory(ctx, past, nil); err != nil {
		t.Fatal(err)
	}
	snap, err := s.Snapshot(ctx, "C02", []string{"GC500", "BR01", "NOPE"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(snap.Customer, customers()[1]) {
		t.Errorf("customer %+v", snap.Customer)
	}
	if len(snap.Products) != 2 || !reflect.DeepEqual(snap.Products["GC500"], products()[0]) {
		t.Errorf("products %+v; want GC500 and BR01 as written", snap.Products)
	}
	if snap.Committed["GC500"] != 6 || snap.Committed["BR01"] != 0 {
		t.Errorf("committed %v; want the 6 bottles of the open order only", snap.Committed)
	}
	if _, err := s.Snapshot(ctx, "C99", []string{"GC500"}); domain.ErrorCode(err) != domain.ENOTFOUND {
		t.Errorf("Snapshot of an unknown customer = %v, want %s", err, domain.ENOTFOUND)
	}
	if snap, err := s.Snapshot(ctx, "C01", nil); err != nil || snap.Customer.ID != "C01" || len(snap.Products) != 0 {
		t.Errorf("Snapshot without SKUs = %+v, %v", snap, err)
	}
}

// testCommit: an "ok" puts the order in the books with its lines, the
// stock it holds and the dues it adds, with its notifications and its
// audit note, in one go.
func testCommit(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	svc := service(t, s, c)
	d := show(t, s, c, ravi, "C01", domain.PayCredit, orders.Item{SKU: "GC500", Qty: 240, SaidQty: 10, SaidUnit: "carton"},
		orders.Item{SKU: "BR01", Qty: 12})
	reply := svc.Confirm(ctx, domain.User{Phone: ravi, Name: "Ravi Kumar", Role: domain.RoleSales}, "")
	// The first order placed takes the first order number, whatever the
	// draft's reference.
	const id = "ORD-1001"
	if !strings.Contains(reply.Text, "Order *"+id+"* placed") {
		t.Fatalf("ok = %q, want %s placed", reply.Text, id)
	}
	if got := orderOf(t, s, d.ID); got != id {
		t.Fatalf("draft %s placed as %q, want %s", d.ID, got, id)
	}
	if byOrder, found, err := s.DraftByID(ctx, id); err != nil || !found || byOrder.ID != d.ID {
		t.Errorf("DraftByID(%s) = %s %v, %v; want the draft %s it was placed from", id, byOrder.ID, found, err, d.ID)
	}
	o, found, err := s.Order(ctx, id)
	if err != nil || !found {
		t.Fatalf("Order(%s) = %v, %v", id, found, err)
	}
	if o.Status != domain.OrderCommitted || o.Total != d.Total || o.CustomerID != "C01" || o.PlacedBy != ravi ||
		!reflect.DeepEqual(o.Lines, d.Lines) || !o.CommittedAt.Equal(T0) || !o.CreatedAt.Equal(d.CreatedAt) {
		t.Errorf("order as placed = %+v, want the draft %+v", o, d)
	}
	if st := draftStatus(t, s, d.ID); st != orders.DraftCommitted {
		t.Errorf("draft %s, want committed", st)
	}
	if held, _ := s.Committed(ctx, "GC500", "BR01"); held["GC500"] != 240 || held["BR01"] != 12 {
		t.Errorf("committed %v", held)
	}
	cs, _ := s.Customers(ctx)
	if want := customers()[0].Outstanding + d.Total; cs[0].Outstanding != want {
		t.Errorf("outstanding %v, want %v: a credit order adds to the dues", cs[0].Outstanding, want)
	}
	rows, err := s.OutboxMessages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, r := range rows {
		kinds[r.Kind+" "+r.To]++
		if r.To == accounts || r.Kind == domain.EffectEmail {
			if r.About != id || r.TellOnFailure != ravi {
				t.Errorf("accounts' copy %+v: want it about %s, warning %s", r, id, ravi)
			}
		}
		if draftNamed.MatchString(string(r.Payload)) || !strings.Contains(string(r.Payload), id) {
			t.Errorf("effect to %s names the draft %s, or not the order %s: %s", r.To, d.ID, id, r.Payload)
		}
		if r.Status != "pending" || !r.CreatedAt.Equal(T0) {
			t.Errorf("effect %+v: want pending since the commit", r)
		}
	}
	if want := map[string]int{"whatsapp " + accounts: 1, "whatsapp " + ravi: 1, "email " + accountsMail: 1}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("effects %v, want %v", kinds, want)
	}
	notes, err := s.AuditEntries(ctx, "commit")
	if err != nil || len(notes) != 1 || notes[0].Subject != id || notes[0].Detail["draft"] != d.ID || notes[0].Actor != ravi || notes[0].Detail["notifications"] != float64(3) {
		t.Errorf("commit notes = %+v, %v", notes, err)
	}
}

var errJudged = errors.New("the books say no")

// testCommitJudged: a judgement that refuses leaves the books, the draft,
// the outbox and the audit log as they were, and comes back as it is.
func testCommitJudged(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	d := show(t, s, c, ravi, "C01", domain.PayCOD, orders.Item{SKU: "GC500", Qty: 24})
	var judged orders.Snapshot
	id, err := s.Commit(ctx, orders.Commitment{Draft: d, By: ravi,
		Judge: func(snap orders.Snapshot) error { judged = snap; return errJudged },
		Tell:  tell(t, "a refused commit")})
	if err != errJudged || id != "" {
		t.Fatalf("Commit = %q, %v; want the judgement's own error as it is", id, err)
	}
	if judged.Customer.ID != "C01" || judged.Products["GC500"].StockReady != 2400 {
		t.Errorf("the judge saw %+v; want the customer and the draft's products", judged)
	}
	if placed(t, s, d.ID) || draftStatus(t, s, d.ID) != orders.DraftOpen {
		t.Error("a refused commit placed the order or moved the draft")
	}
	if n, _ := s.OutboxDepth(ctx); n != 0 {
		t.Errorf("a refused commit wrote %d effects", n)
	}
	if notes, _ := s.AuditEntries(ctx, "commit"); len(notes) != 0 {
		t.Errorf("a refused commit wrote audit notes %+v", notes)
	}
	if held, _ := s.Committed(ctx, "GC500"); held["GC500"] != 0 {
		t.Errorf("a refused commit holds stock: %v", held)
	}
	// Nor did it take an order number: the next order placed is the first.
	if id, err := s.Commit(ctx, orders.Commitment{Draft: d, By: ravi, Judge: func(orders.Snapshot) error { return nil }}); err != nil || id != "ORD-1001" {
		t.Errorf("the commit after a refused one = %q, %v; want ORD-1001", id, err)
	}
}

// tell is a Commitment's Tell that should not be called: it fails t.
func tell(t *testing.T, what string) func(string) ([]domain.Effect, []orders.AuditNote) {
	return func(id string) ([]domain.Effect, []orders.AuditNote) {
		t.Errorf("%s told people of order %s", what, id)
		return []domain.Effect{domain.WhatsApp(domain.Outbound{To: accounts, Body: "🧾 New order " + id})},
			[]orders.AuditNote{{Actor: ravi, Kind: "commit", Subject: id}}
	}
}

// testSecondOk: a draft is committed once; committing it again is a
// conflict that writes nothing.
func testSecondOk(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	d := show(t, s, c, ravi, "C01", domain.PayCredit, orders.Item{SKU: "GC500", Qty: 48})
	commit := func() (string, error) {
		return s.Commit(ctx, orders.Commitment{Draft: d, By: ravi, Judge: func(orders.Snapshot) error { return nil },
			Tell: func(id string) ([]domain.Effect, []orders.AuditNote) {
				return []domain.Effect{domain.WhatsApp(domain.Outbound{To: accounts, Body: "🧾 New order " + id})}, nil
			}})
	}
	if id, err := commit(); err != nil || id != "ORD-1001" {
		t.Fatalf("commit = %q, %v; want ORD-1001", id, err)
	}
	id, err := commit()
	if domain.ErrorCode(err) != domain.ECONFLICT || id != "" {
		t.Fatalf("second commit = %q, %v, want %s", id, err, domain.ECONFLICT)
	}
	cs, _ := s.Customers(ctx)
	held, _ := s.Committed(ctx, "GC500")
	if n, _ := s.OutboxDepth(ctx); n != 1 || held["GC500"] != 48 || cs[0].Outstanding != customers()[0].Outstanding+d.Total {
		t.Errorf("after a second ok: %d effects, %d committed, outstanding %v; want one order's worth", n, held["GC500"], cs[0].Outstanding)
	}
	// A draft that was never shown is no commit either.
	ghost := d
	ghost.ID = domain.DraftRef(999999)
	if _, err := s.Commit(ctx, orders.Commitment{Draft: ghost, By: ravi, Judge: func(orders.Snapshot) error { return nil }}); domain.ErrorCode(err) != domain.ECONFLICT {
		t.Errorf("commit of an unknown draft = %v, want %s", err, domain.ECONFLICT)
	}
	// Neither conflict took a number.
	if id := placeOrder(t, s, c, service(t, s, c), domain.PayCOD, orders.Item{SKU: "BR01", Qty: 12}).ID; id != "ORD-1002" {
		t.Errorf("the next order placed is %s, want ORD-1002", id)
	}
}
