package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
)

var proposalRef = regexp.MustCompile(`PRP-\d+`)

// TestAnAdvanceBeyondTheBoundNeedsTheOwnerEndToEnd: through the webhook,
// with MUNSHI_MAX_ADVANCE at ₹2 lakh, an advance up to it is recorded on
// the accountant's ok; 1.2 crore is shown in words, waits for the owner
// after the ok, reaches the owner on WhatsApp, and is recorded once by
// "approve PRP-…"; a second such payment is rejected, the accountant told.
func TestAnAdvanceBeyondTheBoundNeedsTheOwnerEndToEnd(t *testing.T) {
	tw := newFakeTwilio(t)
	m := startMainAt(t, standing(2026, 12, 1), tw.URL, map[string]string{"MUNSHI_MAX_ADVANCE": "200000"},
		func(m *Main) { m.Dispatcher.BaseBackoff = time.Millisecond })
	due := outstanding(t, m, "C01") // Rajesh Kirana Store, credit limit ₹1,00,000

	modest := say(t, m, "SMav1", demo.AccountsPhone, "Rajesh ne 1,85,000 cash diya")
	mustContain(t, "a modest advance", modest, "In words: one lakh eighty-five thousand rupees", "more than Rajesh Kirana Store owes", "Reply *ok* to record it")
	mustContain(t, "its ok", say(t, m, "SMav2", demo.AccountsPhone, "ok"), "✅ Recorded ₹1,85,000")
	due -= 18500000

	shown := say(t, m, "SMav3", demo.AccountsPhone, "Rajesh ne 1.2 crore cash diya")
	mustContain(t, "summary", shown, "₹1,20,00,000", "In words: one crore twenty lakh rupees", "Needs an owner's approval",
		"more than ₹2,00,000 (the business's limit for an advance", "send it to the owner")
	waits := say(t, m, "SMav4", demo.AccountsPhone, "ok")
	mustContain(t, "ok", waits, "needs the owner's approval")
	id := proposalRef.FindString(waits)
	if got := outstanding(t, m, "C01"); id == "" || got != due {
		t.Fatalf("after the ok: %q, dues %v (want %v)", waits, got, due)
	}
	mustContain(t, "the owner's message", waitFor(t, tw, demo.OwnerPhone, "Approval needed: payment "+id),
		"one crore twenty lakh rupees", "approve "+id)

	mustContain(t, "approve", say(t, m, "SMav5", demo.OwnerPhone, "approve "+id), "Approved "+id, "Recorded ₹1,20,00,000")
	if got := outstanding(t, m, "C01"); got != due-1200000000 {
		t.Fatalf("dues %v after approval, want %v", got, due-1200000000)
	}
	waitFor(t, tw, demo.AccountsPhone, "Payment "+id+" was approved by Vikram Singh")
	mustContain(t, "a second approve", say(t, m, "SMav6", demo.OwnerPhone, "approve "+id), "already recorded")
	if got := outstanding(t, m, "C01"); got != due-1200000000 {
		t.Fatalf("dues %v after a second approve", got)
	}

	say(t, m, "SMav7", demo.AccountsPhone, "Rajesh ne 1.2 crore cash diya")
	other := proposalRef.FindString(say(t, m, "SMav8", demo.AccountsPhone, "ok"))
	mustContain(t, "reject", say(t, m, "SMav9", demo.OwnerPhone, "reject "+other), "Rejected "+other)
	waitFor(t, tw, demo.AccountsPhone, "Payment "+other+" of ₹1,20,00,000 from Rajesh Kirana Store was rejected by Vikram Singh")
	if got := outstanding(t, m, "C01"); got != due-1200000000 {
		t.Fatalf("dues %v after a rejection", got)
	}
	if strings.Contains(say(t, m, "SMav10", demo.OwnerPhone, "approve "+other), "Approved") {
		t.Fatal("a rejected payment was approved")
	}
}
