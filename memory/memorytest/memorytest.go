// Package memorytest is the test suite every memory.Store must pass, run
// against the in-process store and against real Redis, so that both keep
// one behaviour: the window and its structured summary, the bounds, the
// TTL on everything, Forget, Seen, the per-person FIFO lock under
// concurrency, and where "reply MORE" continues.
package memorytest

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/patience"
	"github.com/munshi/munshi/memory"
)

// Backend is one store under test, with what the suite needs to look
// inside it.
type Backend struct {
	Store memory.Store
	// Peer is a second handle on the same data, as a second Munshi
	// instance would have; nil means Store.
	Peer memory.Store
	// Advance moves the store's clock forward. Nil for a store on real
	// time (Redis): the clock tests are skipped and Keys checks the TTLs.
	Advance func(d time.Duration)
	// Keys returns every key or entry the store holds, with its remaining
	// lifetime (zero or less: none). Names contain "conv:" for
	// conversations and "seen:" for message ids.
	Keys func(t *testing.T) map[string]time.Duration
	// Size returns the bytes stored for phone's conversation.
	Size func(t *testing.T, phone string) int
	// Waiting returns how many Lock calls for phone are waiting.
	Waiting func(t *testing.T, phone string) int
}

func (b Backend) peer() memory.Store {
	if b.Peer != nil {
		return b.Peer
	}
	return b.Store
}

var phones atomic.Int64

// Phone returns a phone number no other test uses.
func Phone() string {
	return fmt.Sprintf("+9198%08d", time.Now().UnixNano()%1e8/100*100+phones.Add(1)%100)
}

// Run runs the suite; newBackend is called once per subtest.
func Run(t *testing.T, newBackend func(t *testing.T) Backend) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, Backend)
	}{
		{"UnknownPhoneIsEmpty", testUnknownPhone},
		{"WindowAndSummary", testWindowAndSummary},
		{"BoundsAndSize", testBounds},
		{"Scrub", testScrub},
		{"InvalidInput", testInvalid},
		{"TTL", testTTL},
		{"Expiry", testExpiry},
		{"Forget", testForget},
		{"Seen", testSeen},
		{"SeenLeaseOfADeadHolder", testSeenLease},
		{"AppendIsAtomic", testAtomicAppend},
		{"LockKeepsArrivalOrder", testLockOrder},
		{"LockWaitIsBounded", testLockTimeout},
		{"Continuation", testContinuation},
		{"ContinuationWithinSize", testContinuationWithinSize},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newBackend(t)) })
	}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), patience.Limit)
	t.Cleanup(cancel)
	return c
}

func testUnknownPhone(t *testing.T, b Backend) {
	phone := Phone()
	c, err := b.Store.Load(ctx(t), phone)
	if err != nil {
		t.Fatal(err)
	}
	if c.Phone != phone || !c.Empty() || c.Unavailable {
		t.Fatalf("Load of an unknown phone = %+v, want empty", c)
	}
}

func testWindowAndSummary(t *testing.T, b Backend) {
	phone := Phone()
	base := time.Date(2025, 7, 1, 10, 0, 0, 0, time.UTC)
	var all []memory.Turn
	// 14 turns: the first 4 fold into the summary.
	script := []memory.Turn{
		{Role: memory.RolePerson, Text: "show me stock for glass cleaner", Intent: domain.IntentStock, Products: []string{"GC500"}},
		{Role: memory.RoleMunshi, Text: "Glass Cleaner 500ml: 2,400 ready, 480 in production.", Tool: "stock", Products: []string{"GC500"}, Rows: []string{"GC500 ready 2400", "GC500 wip 480"}},
		{Role: memory.RolePerson, Text: "and who bought it last week?", Intent: domain.IntentReport},
		{Role: memory.RoleMunshi, Text: "Last week: Sharma Traders 10 ctn, Gupta Stores 4 ctn.", Tool: "sales_by_customer", Customers: []string{"C03", "C07"}, Products: []string{"GC500"}, Rows: []string{"C03 Sharma Traders 240", "C07 Gupta Stores 96"}},
		{Role: memory.RolePerson, Text: "what about their outstanding?", Intent: domain.IntentOutstanding},
		{Role: memory.RoleMunshi, Text: "Sharma Traders ₹25,000; Gupta Stores ₹8,400.", Tool: "outstanding", Customers: []string{"C03", "C07"}, Rows: []string{"C03 ₹25,000", "C07 ₹8,400"}},
		{Role: memory.RolePerson, Text: "5 carton GC for Sharma ji, COD", Intent: domain.IntentOrder, Customers: []string{"C03"}, Products: []string{"GC500"}},
		{Role: memory.RoleMunshi, Text: "Draft D-101: Sharma Traders, 5 ctn GC500, ₹13,027 incl. GST. Reply ok to confirm.", Tool: "draft", DraftID: "D-101", Customers: []string{"C03"}, Products: []string{"GC500"}},
		{Role: memory.RolePerson, Text: "ok", Intent: domain.IntentConfirm},
		{Role: memory.RoleMunshi, Text: "Sent for approval.", DraftID: "D-101"},
		{Role: memory.RolePerson, Text: "phenyl ka stock?", Intent: domain.IntentStock, Products: []string{"PH1L"}},
		{Role: memory.RoleMunshi, Text: "Phenyl 1L: 900 ready.", Tool: "stock", Products: []string{"PH1L"}},
		{Role: memory.RolePerson, Text: "same order for Mehta ji", Intent: domain.IntentOrder, Customers: []string{"C11"}},
		{Role: memory.RoleMunshi, Text: "Draft D-102: Mehta Agencies, 5 ctn GC500.", Tool: "draft", DraftID: "D-102", Customers: []string{"C11"}, Products: []string{"GC500"}},
	}
	for i := range script {
		script[i].At = base.Add(time.Duration(i) * time.Minute)
	}
	for i, turn := range script {
		all = append(all, turn)
		// Some appends carry two turns, as a question and its answer.
		if turn.Role == memory.RolePerson && i%4 == 0 {
			continue
		}
		if err := b.Store.Append(ctx(t), phone, pending(all)...); err != nil {
			t.Fatal(err)
		}
		all = all[:0]
	}
	if len(all) > 0 {
		t.Fatalf("script left turns unappended")
	}
	c, err := b.peer().Load(ctx(t), phone)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Turns) != memory.Window {
		t.Fatalf("kept %d turns, want %d", len(c.Turns), memory.Window)
	}
	for i, turn := range c.Turns {
		want := script[len(script)-memory.Window+i]
		if turn.Text != want.Text || turn.Role != want.Role || !turn.At.Equal(want.At) || turn.Intent != want.Intent ||
			turn.Tool != want.Tool || turn.DraftID != want.DraftID || !equal(turn.Customers, want.Customers) ||
			!equal(turn.Products, want.Products) || !equal(turn.Rows, want.Rows) {
			t.Errorf("turn %d = %+v, want %+v", i, turn, want)
		}
	}
	s := c.Summary
	if s.Folded != 4 {
		t.Errorf("Folded = %d, want 4", s.Folded)
	}
	wantList(t, "Asked", s.Asked, "report: and who bought it last week?", "stock: show me stock for glass cleaner")
	wantList(t, "Tools", s.Tools, "sales_by_customer", "stock")
	wantList(t, "Customers", s.Customers, "C03", "C07")
	wantList(t, "Products", s.Products, "GC500")
	wantList(t, "LastRows", s.LastRows, "C03 Sharma Traders 240", "C07 Gupta Stores 96")
	if s.LastDraft != "" {
		t.Errorf("LastDraft = %q before any draft was folded", s.LastDraft)
	}
	// Four more turns fold the first draft in.
	for i := range 4 {
		if err := b.Store.Append(ctx(t), phone, memory.Turn{Role: memory.RolePerson, Text: fmt.Sprintf("filler %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	c, _ = b.Store.Load(ctx(t), phone)
	if c.Summary.LastDraft != "D-101" || c.Summary.Folded != 8 {
		t.Errorf("after folding the draft: %+v", c.Summary)
	}
	wantList(t, "Customers", c.Summary.Customers, "C03", "C07")
	wantList(t, "Tools", c.Summary.Tools, "draft", "outstanding", "sales_by_customer", "stock")
	wantList(t, "LastRows", c.Summary.LastRows, "C03 ₹25,000", "C07 ₹8,400")
	if got := c.Turns[len(c.Turns)-1].Text; got != "filler 3" {
		t.Errorf("newest turn = %q", got)
	}
}

func pending(turns []memory.Turn) []memory.Turn { return append([]memory.Turn(nil), turns...) }

// RealisticTurns are ten turns of a busy owner's conversation, with the
// long replies Munshi gives (stock tables, dues lists), in English,
// Hinglish and Devanagari.
func RealisticTurns(at time.Time) []memory.Turn {
	stock := "Stock as of 10:42 —\n" +
		"• Glass Cleaner 500ml (GC500): 2,400 bottles ready (100 cartons), 480 in production, 312 committed to pending orders\n" +
		"• Glass Cleaner 5L (GC5L): 140 cans ready, 60 in production\n" +
		"• Phenyl 1L (PH1L): 900 bottles ready, none in production; at last week's pace this lasts 9 days\n" +
		"• Toilet Cleaner 500ml (TC500): 1,150 ready, 200 in production\n" +
		"Reply *GC history* for the last 30 days."
	buyers := "Glass Cleaner 500ml, last week (7 customers, 1,488 bottles):\n" +
		"1. Sharma Traders (C03) — 480 bottles, ₹44,160\n2. Gupta General Stores (C07) — 360 bottles, ₹33,120\n" +
		"3. Mehta Agencies (C11) — 240 bottles, ₹22,080\n4. Rajesh Kirana (C02) — 192 bottles, ₹17,664\n" +
		"5. Jain Super Mart (C15) — 120 bottles, ₹11,040\n6. Verma & Sons (C09) — 72 bottles, ₹6,624\n7. New Lucky Store (C21) — 24 bottles, ₹2,208"
	dues := "Outstanding of last week's GC buyers:\n" +
		"• Sharma Traders: ₹1,25,400 (limit ₹1,50,000; oldest bill 38 days)\n• Gupta General Stores: ₹48,200 (limit ₹75,000)\n" +
		"• Mehta Agencies: ₹0\n• Rajesh Kirana: ₹12,900 (oldest bill 52 days — over terms)\n• Jain Super Mart: ₹66,000\n" +
		"• Verma & Sons: ₹9,300\n• New Lucky Store: ₹2,208\nTotal ₹2,64,008. Reply *remind Rajesh* to send a payment reminder."
	draft := "Order summary for Sharma Traders (C03), payment: credit\n" +
		"• Glass Cleaner 500ml × 5 cartons (120 bottles) @ ₹92 = ₹11,040\n• Phenyl 1L × 10 packs (60 bottles) @ ₹64 = ₹3,840\n" +
		"Subtotal ₹14,880 + GST 18% ₹2,678.40 = *₹17,558.40*\nCredit after this order: ₹1,42,958.40 of ₹1,50,000.\n" +
		"Reply *ok* to send for approval or *cancel*."
	turns := []memory.Turn{
		{Role: memory.RolePerson, Text: "GC ka stock kitna hai? aur phenyl bhi batao, kal Sharma ji ka bada order aa sakta hai", Intent: domain.IntentStock, Products: []string{"GC500", "PH1L"}},
		{Role: memory.RoleMunshi, Text: stock, Tool: "stock", Products: []string{"GC500", "GC5L", "PH1L", "TC500"}, Rows: []string{"GC500 ready 2400 wip 480", "GC5L ready 140 wip 60", "PH1L ready 900", "TC500 ready 1150 wip 200"}},
		{Role: memory.RolePerson, Text: "and who bought it last week? sabse zyada kisne liya", Intent: domain.IntentReport},
		{Role: memory.RoleMunshi, Text: buyers, Tool: "sales_by_customer", Customers: []string{"C03", "C07", "C11", "C02", "C15", "C09", "C21"}, Products: []string{"GC500"}, Rows: []string{"C03 Sharma Traders 480 ₹44,160", "C07 Gupta General Stores 360 ₹33,120", "C11 Mehta Agencies 240 ₹22,080", "C02 Rajesh Kirana 192 ₹17,664", "C15 Jain Super Mart 120 ₹11,040"}},
		{Role: memory.RolePerson, Text: "उनका बकाया कितना है? जो 30 दिन से ऊपर है वो अलग से बताना", Intent: domain.IntentOutstanding},
		{Role: memory.RoleMunshi, Text: dues, Tool: "outstanding", Customers: []string{"C03", "C07", "C11", "C02", "C15", "C09", "C21"}, Rows: []string{"C03 ₹1,25,400", "C07 ₹48,200", "C11 ₹0", "C02 ₹12,900 over terms", "C15 ₹66,000", "C09 ₹9,300", "C21 ₹2,208"}},
		{Role: memory.RolePerson, Text: "Sharma ji ke liye 5 carton GC aur 10 pack phenyl, credit pe. delivery kal subah tak honi chahiye", Intent: domain.IntentOrder, Customers: []string{"C03"}, Products: []string{"GC500", "PH1L"}},
		{Role: memory.RoleMunshi, Text: draft, Tool: "draft", DraftID: "D-2417", Customers: []string{"C03"}, Products: []string{"GC500", "PH1L"}, Rows: []string{"GC500 120 ₹11,040", "PH1L 60 ₹3,840", "total ₹17,558.40"}},
		{Role: memory.RolePerson, Text: "aur 5 carton GC add karo, aur same order Mehta ji ke liye bhi bana do", Intent: domain.IntentOrder, Customers: []string{"C11"}, Products: []string{"GC500"}},
		{Role: memory.RoleMunshi, Text: strings.Replace(draft, "Sharma Traders (C03)", "Mehta Agencies (C11)", 1), Tool: "draft", DraftID: "D-2418", Customers: []string{"C11"}, Products: []string{"GC500", "PH1L"}, Rows: []string{"GC500 240 ₹22,080", "PH1L 60 ₹3,840", "total ₹30,585.60"}},
	}
	for i := range turns {
		turns[i].At = at.Add(time.Duration(i) * 30 * time.Second)
	}
	return turns
}

func testBounds(t *testing.T, b Backend) {
	// Realistic long messages at the full window stay within MaxBytes.
	phone := Phone()
	turns := RealisticTurns(time.Now())
	if err := b.Store.Append(ctx(t), phone, turns...); err != nil {
		t.Fatal(err)
	}
	if n := b.Size(t, phone); n <= 0 || n > memory.MaxBytes {
		t.Fatalf("stored %d bytes at the full window, bound %d", n, memory.MaxBytes)
	} else {
		t.Logf("realistic conversation at the full window: %d bytes", n)
	}
	c, _ := b.Store.Load(ctx(t), phone)
	if len(c.Turns) != memory.Window {
		t.Fatalf("kept %d turns", len(c.Turns))
	}
	if c.Turns[8].Text != turns[8].Text {
		t.Errorf("a short recent message was cut: %q", c.Turns[8].Text)
	}
	if c.Turns[9].DraftID != "D-2418" || len(c.Turns[3].Customers) != 7 {
		t.Errorf("entities lost while fitting: %+v", c.Turns[9])
	}

	// Hostile input: huge texts, long lists, long rows, many turns.
	phone = Phone()
	long := strings.Repeat("लंबा संदेश ", 400)
	var many []string
	for i := range 40 {
		many = append(many, fmt.Sprintf("C%02d %s", i, strings.Repeat("x", 200)))
	}
	for i := range 30 {
		err := b.Store.Append(ctx(t), phone, memory.Turn{
			Role: memory.RoleMunshi, Text: long, Customers: many, Products: many, Rows: many,
			Tool: strings.Repeat("t", 100) + fmt.Sprint(i), DraftID: "D-" + strings.Repeat("9", 100),
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := b.Size(t, phone); n > memory.MaxBytes {
		t.Fatalf("stored %d bytes, bound %d", n, memory.MaxBytes)
	}
	c, _ = b.Store.Load(ctx(t), phone)
	if len(c.Turns) == 0 || c.Summary.Folded == 0 {
		t.Fatalf("nothing kept: %d turns, %d folded", len(c.Turns), c.Summary.Folded)
	}
	for _, turn := range c.Turns {
		if r := len([]rune(turn.Text)); r > memory.MaxTextRunes {
			t.Errorf("turn text of %d runes", r)
		}
		for _, l := range [][]string{turn.Customers, turn.Products, turn.Rows} {
			if len(l) > memory.MaxList {
				t.Errorf("turn list of %d", len(l))
			}
		}
		for _, r := range turn.Rows {
			if len([]rune(r)) > memory.MaxRowRunes {
				t.Errorf("row of %d runes", len([]rune(r)))
			}
		}
		if len([]rune(turn.Tool)) > memory.MaxIDRunes || len([]rune(turn.DraftID)) > memory.MaxIDRunes {
			t.Errorf("tool %q / draft %q too long", turn.Tool, turn.DraftID)
		}
	}
	s := c.Summary
	for _, l := range [][]string{s.Asked, s.Tools, s.Customers, s.Products, s.LastRows} {
		if len(l) > memory.MaxList {
			t.Errorf("summary list of %d", len(l))
		}
	}
}

func testScrub(t *testing.T, b Backend) {
	phone := Phone()
	secrets := []string{
		"AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW",
		"bearer eyJhbGciOiJIUzI1NiJ9abcdefghijkl",
		"0123456789abcdef0123456789abcdef",
		"hunter2secret",
	}
	text := "key " + secrets[0] + " header Authorization: " + secrets[1] + " twilio " + secrets[2] +
		" db postgres://munshi:" + secrets[3] + "@db.internal:5432/munshi"
	err := b.Store.Append(ctx(t), phone,
		memory.Turn{Role: memory.RolePerson, Text: text, Rows: []string{"token " + secrets[2]}})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := b.Store.Load(ctx(t), phone)
	got := c.Turns[0].Text + strings.Join(c.Turns[0].Rows, " ")
	for _, s := range secrets {
		if strings.Contains(got, s) {
			t.Errorf("memory kept the secret %q: %q", s, got)
		}
	}
	if !strings.Contains(got, memory.Redacted) || !strings.Contains(got, "db.internal") {
		t.Errorf("scrubbed text = %q", got)
	}
}

func testInvalid(t *testing.T, b Backend) {
	if err := b.Store.Append(ctx(t), Phone(), memory.Turn{Role: "system", Text: "x"}); domain.ErrorCode(err) != domain.EINVALID {
		t.Errorf("a bad role: %v, want EINVALID", err)
	}
	if _, err := b.Store.Load(ctx(t), ""); domain.ErrorCode(err) != domain.EINVALID {
		t.Errorf("an empty phone: %v", err)
	}
	if err := b.Store.Append(ctx(t), "+91 98 {x}", memory.Turn{Role: memory.RolePerson}); domain.ErrorCode(err) != domain.EINVALID {
		t.Errorf("a phone with braces: %v", err)
	}
	if _, err := b.Store.Seen(ctx(t), "", Phone(), 0); domain.ErrorCode(err) != domain.EINVALID {
		t.Errorf("an empty sid: %v", err)
	}
	if _, err := b.Store.Seen(ctx(t), strings.Repeat("S", 65), Phone(), 0); domain.ErrorCode(err) != domain.EINVALID {
		t.Errorf("a sid of 65 characters: %v", err)
	}
	if _, err := b.Store.Seen(ctx(t), "SMnophone", "", 0); domain.ErrorCode(err) != domain.EINVALID {
		t.Errorf("a sid without a phone: %v", err)
	}
	if err := b.Store.Answered(ctx(t), "SMbadphone", "+91 {x}"); domain.ErrorCode(err) != domain.EINVALID {
		t.Errorf("Answered with a bad phone: %v", err)
	}
}

// testTTL checks that every key the store writes has a lifetime within
// its bound: a message id's claim lives its lease, an answered one
// SeenTTL.
func testTTL(t *testing.T, b Backend) {
	phone := Phone()
	if err := b.Store.Append(ctx(t), phone, memory.Turn{Role: memory.RolePerson, Text: "GC stock?"}); err != nil {
		t.Fatal(err)
	}
	sid := "SM" + strings.TrimPrefix(phone, "+")
	if _, err := b.Store.Seen(ctx(t), sid, phone, time.Minute); err != nil {
		t.Fatal(err)
	}
	unlock, err := b.Store.Lock(ctx(t), phone)
	if err != nil {
		t.Fatal(err)
	}
	keys := b.Keys(t)
	unlock()
	checkLifetimes(t, keys, 0, time.Minute)
	if err := b.Store.Answered(ctx(t), sid, phone); err != nil {
		t.Fatal(err)
	}
	checkLifetimes(t, b.Keys(t), time.Minute, memory.SeenTTL)
}

// checkLifetimes checks that keys hold one conversation and one message id,
// the id living more than seenMin and at most seenMax.
func checkLifetimes(t *testing.T, keys map[string]time.Duration, seenMin, seenMax time.Duration) {
	t.Helper()
	var conv, seen int
	for k, ttl := range keys {
		low, high := time.Duration(0), memory.TTL
		switch {
		case strings.Contains(k, "conv:"):
			conv++
		case strings.Contains(k, "seen:"):
			seen++
			low, high = seenMin, seenMax
		}
		if ttl <= low || ttl > high {
			t.Errorf("key %s has lifetime %v, want in (%v, %v]", k, ttl, low, high)
		}
	}
	if conv != 1 || seen != 1 {
		t.Errorf("keys = %v, want one conversation and one message id", keys)
	}
}

func testExpiry(t *testing.T, b Backend) {
	if b.Advance == nil {
		t.Skip("the store keeps real time; TTL checks its keys")
	}
	phone := Phone()
	say := func(text string) {
		t.Helper()
		if err := b.Store.Append(ctx(t), phone, memory.Turn{Role: memory.RolePerson, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	turns := func() int {
		c, err := b.Store.Load(ctx(t), phone)
		if err != nil {
			t.Fatal(err)
		}
		return len(c.Turns)
	}
	say("one")
	b.Advance(23 * time.Hour)
	if turns() != 1 {
		t.Fatal("expired before 24 h")
	}
	say("two") // restarts the 24 h
	b.Advance(23 * time.Hour)
	if turns() != 2 {
		t.Fatal("the TTL did not restart with the last message")
	}
	b.Advance(time.Hour + time.Second)
	if turns() != 0 {
		t.Fatal("still remembered 24 h after the last message")
	}
	sid := "SMexpiry" + strings.TrimPrefix(phone, "+")
	wantSeen(t, b.Store, sid, phone, 0, memory.SeenNew)
	if err := b.Store.Answered(ctx(t), sid, phone); err != nil {
		t.Fatal(err)
	}
	b.Advance(memory.SeenTTL - time.Minute)
	wantSeen(t, b.Store, sid, phone, 0, memory.SeenAnswered)
	b.Advance(2 * time.Minute)
	wantSeen(t, b.Store, sid, phone, 0, memory.SeenNew)
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func wantList(t *testing.T, name string, got []string, want ...string) {
	t.Helper()
	if !equal(got, want) {
		t.Errorf("%s = %q, want %q", name, got, want)
	}
}
