package main

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/mail/mailtest"
)

var orderID = regexp.MustCompile(`ORD-\d+`)

// draftRef finds a draft's reference (D-57) in a reply: a draft takes its
// order number only when it is placed.
var draftRef = regexp.MustCompile(`\bD-\d+`)

// placedAs is the number of the order the draft was placed as, "" while
// it is not placed.
func placedAs(t testing.TB, m *Main, draft string) string {
	t.Helper()
	d, ok, err := m.Store.DraftByID(context.Background(), draft)
	if err != nil || !ok || draft == "" {
		t.Fatalf("draft %q: %v, %v", draft, ok, err)
	}
	return d.OrderID
}

// startShop runs Munshi with the fake Twilio and a local SMTP server.
func startShop(t *testing.T) (*Main, *fakeTwilio, *mailtest.Server) {
	t.Helper()
	tw := newFakeTwilio(t)
	smtp := mailtest.Start(t)
	smtp.User, smtp.Password = "munshi", "mailpass123"
	m := startMain(t, tw.URL, map[string]string{
		"SMTP_URL": smtp.URL(), "MAIL_FROM": "munshi@distributor.example", "ACCOUNTS_EMAIL": "accounts@distributor.example",
	}, func(m *Main) { m.Dispatcher.BaseBackoff = time.Millisecond })
	return m, tw, smtp
}

// say sends a message as phone and returns the reply text.
func say(t *testing.T, m *Main, sid, phone, body string) string {
	t.Helper()
	resp, got := send(t, m, sid, phone, body, false)
	if resp.StatusCode != 200 {
		t.Fatalf("%q: status %d", body, resp.StatusCode)
	}
	return strings.Join(got, "\n")
}

// waitFor waits until the fake Twilio has sent a message to phone that
// contains want.
func waitFor(t *testing.T, tw *fakeTwilio, phone, want string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, f := range tw.Sent() {
			if f.Get("To") == "whatsapp:"+phone && strings.Contains(f.Get("Body"), want) {
				return f.Get("Body")
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no WhatsApp message to %s containing %q; got %v", phone, want, tw.Sent())
	return ""
}

func countTo(tw *fakeTwilio, phone, want string) int {
	n := 0
	for _, f := range tw.Sent() {
		if f.Get("To") == "whatsapp:"+phone && strings.Contains(f.Get("Body"), want) {
			n++
		}
	}
	return n
}

func TestOrderToCommitEndToEnd(t *testing.T) {
	m, tw, smtp := startShop(t)
	ctx := context.Background()
	before, _ := m.Store.Committed(ctx, "GC500", "PH1L")

	// 10 carton GC = 240 × ₹92 = ₹22,080; 10 pack phenyl = 60 × ₹65 = ₹3,900;
	// GST 18% = ₹4,676.40; total ₹30,656.40.
	summary := say(t, m, "SMo1", demo.SalesPhone, "10 carton glass cleaner aur 10 pack phenyl for Rajesh, COD")
	for _, want := range []string{"Rajesh Kirana Store", "10 cartons (240 bottles)", "10 packs (60 bottles)", "Total: ₹30,656.40", "Reply *ok*"} {
		if !strings.Contains(summary, want) {
			t.Fatalf("summary lacks %q:\n%s", want, summary)
		}
	}
	draft := draftRef.FindString(summary)
	if draft == "" || orderID.MatchString(summary) {
		t.Fatalf("summary names %q and no order number: %s", draft, summary)
	}

	// "Ashok" is a name, never an ok.
	if reply := say(t, m, "SMo2", demo.SalesPhone, "Ashok"); strings.Contains(reply, "placed") {
		t.Fatalf("'Ashok' committed the order: %s", reply)
	}
	if d, _, _ := m.Store.DraftByID(ctx, draft); d.OrderID != "" {
		t.Fatal("order committed before ok")
	}

	// Munshi did not understand "Ashok": the ok after it shows the
	// summary again and places nothing; the next ok places it.
	if reply := say(t, m, "SMo3a", demo.SalesPhone, "ok"); !strings.Contains(reply, "not applied") || !strings.Contains(reply, draft) {
		t.Fatalf("ok after an unread message: %s", reply)
	}
	if d, _, _ := m.Store.DraftByID(ctx, draft); d.OrderID != "" {
		t.Fatal("order committed by the ok after an unread message")
	}
	reply := say(t, m, "SMo3", demo.SalesPhone, "ok")
	id := orderID.FindString(reply)
	if d, _, _ := m.Store.DraftByID(ctx, draft); id == "" || d.OrderID != id || !strings.Contains(reply, "Order *"+id+"* placed") {
		t.Fatalf("ok reply: %s; draft %s placed as %q", reply, draft, d.OrderID)
	}
	// A retried delivery of the same "ok" commits nothing more.
	if again := say(t, m, "SMo3", demo.SalesPhone, "ok"); again != reply {
		t.Fatalf("retry reply %q, want %q", again, reply)
	}
	// A fresh "ok" says it is already placed.
	if r := say(t, m, "SMo4", demo.SalesPhone, "ok"); strings.Contains(r, "placed for") {
		t.Fatalf("second ok: %s", r)
	}

	o, ok, err := m.Store.Order(ctx, id)
	if err != nil || !ok {
		t.Fatalf("order %s not in the books: %v", id, err)
	}
	if o.Status != domain.OrderCommitted || o.CustomerID != "C01" || o.Total != 3065640 || len(o.Lines) != 2 || o.PlacedBy != demo.SalesPhone {
		t.Fatalf("order %+v", o)
	}
	after, _ := m.Store.Committed(ctx, "GC500", "PH1L")
	if after["GC500"]-before["GC500"] != 240 || after["PH1L"]-before["PH1L"] != 60 {
		t.Fatalf("stock committed: before %v after %v", before, after)
	}

	// Accounts hear on WhatsApp and by mail; the salesperson gets the number.
	body := waitFor(t, tw, demo.AccountsPhone, id)
	if !strings.Contains(body, "₹30,656.40") || !strings.Contains(body, "Rajesh Kirana Store") {
		t.Fatalf("accounts message: %s", body)
	}
	waitFor(t, tw, demo.SalesPhone, id)
	mails := smtp.Wait(1, 10*time.Second)
	if len(mails) != 1 {
		rows, _ := m.Store.OutboxMessages(ctx)
		for _, r := range rows {
			if r.Kind == "email" {
				t.Logf("email row: %s attempts %d: %s", r.Status, r.Attempts, r.LastError)
			}
		}
		t.Fatalf("%d mails", len(mails))
	}
	raw := mails[0].Raw
	if mails[0].To[0] != "accounts@distributor.example" || !strings.Contains(mails[0].Header().Get("Subject"), id) ||
		!strings.Contains(raw, "text/html") || !strings.Contains(raw, "text/plain") || !strings.Contains(raw, "30,656.40") {
		t.Fatalf("mail: %+v", mails[0])
	}
	if n := countTo(tw, demo.AccountsPhone, id); n != 1 {
		t.Fatalf("accounts told %d times", n)
	}
	commits, _ := m.Store.AuditEntries(ctx, "commit")
	if len(commits) != 1 || commits[0].Subject != id {
		t.Fatalf("commit audit %+v", commits)
	}
}

func TestEscalationNeedsTheOwner(t *testing.T) {
	m, tw, _ := startShop(t)
	ctx := context.Background()
	// 2 carton GC = ₹5,210.88 with GST: under the ₹25,000 minimum.
	summary := say(t, m, "SMe1", demo.SalesPhone, "Sharma ji ko 2 carton GC, udhaar")
	draft := draftRef.FindString(summary)
	if !strings.Contains(summary, "below the ₹25,000 minimum") || draft == "" {
		t.Fatalf("summary: %s", summary)
	}
	reply := say(t, m, "SMe2", demo.SalesPhone, "haan")
	if !strings.Contains(reply, "owner") {
		t.Fatalf("escalation reply: %s", reply)
	}
	if d, _, _ := m.Store.DraftByID(ctx, draft); d.OrderID != "" {
		t.Fatal("the salesperson's ok committed an order below the minimum")
	}
	// The owner is asked about the draft by its reference.
	id := draft
	ask := waitFor(t, tw, demo.OwnerPhone, "approve "+id)
	if !strings.Contains(ask, "minimum") {
		t.Fatalf("owner was not told why: %s", ask)
	}
	// A salesperson cannot approve it themselves.
	if r := say(t, m, "SMe3", demo.SalesPhone, "approve "+id); !strings.Contains(r, "Only an owner") {
		t.Fatalf("sales approval: %s", r)
	}
	r := say(t, m, "SMe4", demo.OwnerPhone, "approve "+id)
	placed := orderID.FindString(r)
	if !strings.Contains(r, "Order *"+placed+"* placed") {
		t.Fatalf("owner approval: %s", r)
	}
	if o, ok, _ := m.Store.Order(ctx, placed); !ok || o.Total != 521088 {
		t.Fatalf("approved order %+v", o)
	}
	waitFor(t, tw, demo.SalesPhone, "approved by Vikram Singh")
	waitFor(t, tw, demo.AccountsPhone, placed)
	// Approved again, by the draft's reference or the order's number, it
	// is already placed.
	for _, ref := range []string{id, placed} {
		if r := say(t, m, "SMe5"+ref, demo.OwnerPhone, "approve "+ref); !strings.Contains(r, "Order "+placed+" is already placed") {
			t.Errorf("approve %s again: %s", ref, r)
		}
	}
	// Sharma's credit order adds to what they owe.
	snap, _ := m.Store.Snapshot(ctx, "C02", nil)
	if snap.Customer.Outstanding != 12000000+521088 {
		t.Fatalf("outstanding %d", snap.Customer.Outstanding)
	}
}

func TestStaleApprovalIsRefused(t *testing.T) {
	m, _, _ := startShop(t)
	ctx := context.Background()
	id := draftRef.FindString(say(t, m, "SMs1", demo.SalesPhone, "2 carton GC for Sharma ji cash"))
	say(t, m, "SMs2", demo.SalesPhone, "ok")
	// The price changes after the owner was asked.
	products, _ := m.Store.Products(ctx)
	for i := range products {
		if products[i].SKU == "GC500" {
			products[i].Price += 500
		}
	}
	if err := m.Store.UpsertProducts(ctx, products); err != nil {
		t.Fatal(err)
	}
	if r := say(t, m, "SMs3", demo.OwnerPhone, "approve "+id); !strings.Contains(r, "changed") {
		t.Fatalf("stale approval: %s", r)
	}
	if d, _, _ := m.Store.DraftByID(ctx, id); d.OrderID != "" {
		t.Fatal("a stale approval committed the order")
	}
}

func TestRejectAndCancel(t *testing.T) {
	m, tw, _ := startShop(t)
	ctx := context.Background()
	id := draftRef.FindString(say(t, m, "SMr1", demo.SalesPhone, "1 carton phenyl Rajesh ke liye cash"))
	say(t, m, "SMr2", demo.SalesPhone, "ok")
	if r := say(t, m, "SMr3", demo.OwnerPhone, "reject "+id); !strings.Contains(r, "Rejected") {
		t.Fatalf("reject: %s", r)
	}
	waitFor(t, tw, demo.SalesPhone, "rejected")
	if r := say(t, m, "SMr4", demo.OwnerPhone, "approve "+id); !strings.Contains(r, "not waiting") {
		t.Fatalf("approve after reject: %s", r)
	}
	id2 := draftRef.FindString(say(t, m, "SMr5", demo.SalesPhone, "10 carton GC for Rajesh cash"))
	if r := say(t, m, "SMr6", demo.SalesPhone, "cancel"); !strings.Contains(r, "Cancelled order "+id2) {
		t.Fatalf("cancel: %s", r)
	}
	if r := say(t, m, "SMr7", demo.SalesPhone, "ok"); !strings.Contains(r, "no order waiting") {
		t.Fatalf("ok after cancel: %s", r)
	}
	if d, _, _ := m.Store.DraftByID(ctx, id2); d.OrderID != "" || d.Status != "cancelled" {
		t.Fatalf("cancelled draft %+v", d)
	}
	// With nothing pending, an ok says so.
	if r := say(t, m, "SMr8", demo.OwnerPhone, "ok"); !strings.Contains(r, "no order waiting") {
		t.Fatalf("ok with no draft: %s", r)
	}
}

func TestOrderClarifications(t *testing.T) {
	m, _, _ := startShop(t)
	for body, want := range map[string]string{
		"5 carton GC for Gupta, upi":         "Gupta Supermart (C04) or Gupta Brothers (C09)",
		"5 carton GC for Verma Stores, cash": "Verma Stores",
		"10 carton pizza for Rajesh cash":    "pizza",
		"Rajesh ke liye 10 carton GC":        "How will Rajesh Kirana Store pay",
		"Rajesh ke liye 500 carton GC, cash": "not enough stock",
		"Mehta ji ko 10 carton GC, cash":     "cash on delivery is not allowed",
	} {
		if r := say(t, m, "SMq"+body, demo.SalesPhone, body); !strings.Contains(r, want) {
			t.Errorf("%q: reply lacks %q:\n%s", body, want, r)
		}
	}
	// Accounts do not place orders.
	if r := say(t, m, "SMq-acc", demo.AccountsPhone, "10 carton GC for Rajesh cash"); !strings.Contains(r, "sales team") {
		t.Errorf("accounts order: %s", r)
	}
}
