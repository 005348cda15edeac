package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/reports/reportstest"
)

func TestQuestionsEndToEnd(t *testing.T) {
	m := startMain(t, newFakeTwilio(t).URL, nil)
	cases := []struct {
		from, text string
		want       []string
	}{
		{demo.OwnerPhone, "how much stock do we have?", []string{"*Stock*", "products"}},
		{demo.OwnerPhone, "GC ka stock kitna hai", []string{"Glass Cleaner 500ml", "Ready: 2,400 bottles"}},
		{demo.OwnerPhone, "can we commit 200 cartons of phenyl?", []string{"Phenyl 1L", "2,400 bottles"}},
		{demo.OwnerPhone, "who owes us money?", []string{"Mehta Traders: ₹2,10,000", "Sharma General Store: ₹1,20,000"}},
		{demo.OwnerPhone, "Mehta ji ka outstanding", []string{"Mehta Traders", "Outstanding: ₹2,10,000", "Headroom: ₹2,90,000"}},
		{demo.AccountsPhone, "राजेश का बकाया कितना है", []string{"Rajesh Kirana Store", "₹35,000"}},
		{demo.OwnerPhone, "pending orders dikhao", []string{"Pending orders"}},
		{demo.OwnerPhone, "फिनाइल का स्टॉक कितना है", []string{"Phenyl 1L"}},
		{demo.OwnerPhone, "who bought glass cleaner last week?", []string{"Who bought Glass Cleaner 500ml"}},
		{demo.AccountsPhone, "top customers this month", []string{"₹"}},
	}
	for i, c := range cases {
		reply := say(t, m, fmt.Sprintf("SMqa%02d", i), c.from, c.text)
		for _, w := range c.want {
			if !strings.Contains(reply, w) {
				t.Errorf("%q: reply lacks %q:\n%s", c.text, w, reply)
			}
		}
	}
}

func TestQuestionRefusalsByRole(t *testing.T) {
	m := startMain(t, newFakeTwilio(t).URL, nil)
	ctx := context.Background()
	// Sales staff do not see dues; accounts do not see stock.
	if r := say(t, m, "SMrr1", demo.SalesPhone, "who owes us money?"); !strings.Contains(r, "owner") || strings.Contains(r, "₹2,10,000") {
		t.Fatalf("sales asking dues: %s", r)
	}
	if r := say(t, m, "SMrr2", demo.AccountsPhone, "GC ka stock kitna hai"); strings.Contains(r, "Ready:") {
		t.Fatalf("accounts asking stock: %s", r)
	}
	refusals, _ := m.Store.AuditEntries(ctx, "refusal")
	if len(refusals) < 2 {
		t.Fatalf("refusals not audited: %+v", refusals)
	}
	tools, _ := m.Store.AuditEntries(ctx, "tool")
	for _, e := range tools {
		if e.Actor == demo.SalesPhone && e.Detail["tool"] == "outstanding" {
			t.Fatalf("a refused call ran: %+v", e)
		}
	}
}

// startLarge runs Munshi on a generated database of 10,000 SKUs and
// 500,000 order lines.
func startLarge(b *testing.B) *Main {
	b.Helper()
	ctx := context.Background()
	src, err := reportstest.Cached(ctx, reportstest.Large)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "large.db")
	if err := reportstest.CopyTo(src, path); err != nil {
		b.Fatal(err)
	}
	return startMain(b, newFakeTwilio(b).URL, map[string]string{"MUNSHI_DB": path})
}

// BenchmarkLargeStockQuestion: "GC ka stock kitna hai" through the webhook
// over 10,000 SKUs and 500,000 order lines.
func BenchmarkLargeStockQuestion(b *testing.B) {
	benchMessages(b, startLarge(b), demo.OwnerPhone, "GC ka stock kitna hai")
}

// BenchmarkLargeOutstandingQuestion: "who owes us money?" at that scale.
func BenchmarkLargeOutstandingQuestion(b *testing.B) {
	benchMessages(b, startLarge(b), demo.OwnerPhone, "who owes us money?")
}

// BenchmarkLargeCustomerOutstanding: "Mehta ji ka outstanding".
func BenchmarkLargeCustomerOutstanding(b *testing.B) {
	benchMessages(b, startLarge(b), demo.OwnerPhone, "Mehta ji ka outstanding")
}
