package reports_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/patience"
	"github.com/munshi/munshi/reports"
)

// fakeModel plays a tool-calling model from a script.
type fakeModel struct {
	mu     sync.Mutex
	steps  int
	seen   [][]reports.AgentMessage
	tools  []reports.ToolSpec
	script func(ctx context.Context, step int, transcript []reports.AgentMessage) (reports.AgentMessage, error)
}

func (m *fakeModel) Step(ctx context.Context, transcript []reports.AgentMessage, tools []reports.ToolSpec) (reports.AgentMessage, error) {
	m.mu.Lock()
	m.steps++
	step := m.steps
	m.seen = append(m.seen, append([]reports.AgentMessage(nil), transcript...))
	m.tools = tools
	m.mu.Unlock()
	return m.script(ctx, step, transcript)
}

func call(id, name string, args map[string]any) reports.AgentMessage {
	return reports.AgentMessage{Role: "model", Calls: []reports.ToolCall{{ID: id, Name: name, Args: args}}}
}

func say(text string) reports.AgentMessage { return reports.AgentMessage{Role: "model", Text: text} }

const rajeshDues = `*Rajesh Kirana Store* (C01)
Outstanding: ₹35,000
Credit limit: ₹1,00,000
Headroom: ₹65,000
Oldest unpaid bill: ORD-1001 of 2 Feb, 40 days; 3 unpaid bills`

func TestAgentAnswersFromTools(t *testing.T) {
	b := knownBooks(t)
	m := &fakeModel{script: func(_ context.Context, step int, tr []reports.AgentMessage) (reports.AgentMessage, error) {
		if step == 1 {
			return call("c1", reports.ToolOutstanding, map[string]any{"customer": "Rajesh bhai"}), nil
		}
		return say("Rajesh Kirana Store owes ₹35,000 (limit ₹1,00,000, ₹65,000 headroom). Oldest unpaid bill: ORD-1001, 40 days old."), nil
	}}
	a := &reports.Agent{Model: m, Tools: b.tools}
	reply, used := a.Ask(context.Background(), owner, "Rajesh bhai ne kitna dena hai aur kab se?")
	if !used || !strings.HasPrefix(reply.Text, "Rajesh Kirana Store owes ₹35,000") {
		t.Fatalf("used %v: %q", used, reply.Text)
	}
	if m.steps != 2 || len(m.tools) != len(reports.Specs()) {
		t.Fatalf("%d steps, %d tools declared", m.steps, len(m.tools))
	}
	// The model saw a compact snapshot of the result.
	last := m.seen[1]
	res := last[len(last)-1]
	if res.Role != "tool" || len(res.Results) != 1 || res.Results[0].CallID != "c1" {
		t.Fatalf("transcript %+v", last)
	}
	snap := res.Results[0].Snapshot
	if snap["row_count"] != 1 || snap["tool"] != reports.ToolOutstanding {
		t.Fatalf("snapshot %v", snap)
	}
	row := snap["rows"].([][]any)[0]
	if row[0] != "C01" || row[2] != "₹35,000" || row[5] != "ORD-1001" || row[7] != 40 {
		t.Fatalf("snapshot row %v", row)
	}
	// The call was audited under the person.
	if es := b.audits(t, reports.KindTool); len(es) != 1 || es[0].Actor != owner.Phone {
		t.Fatalf("audit %+v", es)
	}
}

func TestAgentWrongNumberFallsBack(t *testing.T) {
	b := knownBooks(t)
	m := &fakeModel{script: func(_ context.Context, step int, _ []reports.AgentMessage) (reports.AgentMessage, error) {
		if step == 1 {
			return call("c1", reports.ToolOutstanding, map[string]any{"customer": "C01"}), nil
		}
		return say("Rajesh owes ₹53,000."), nil // not what the tool said
	}}
	reply, used := (&reports.Agent{Model: m, Tools: b.tools}).Ask(context.Background(), owner, "Rajesh ka hisaab?")
	if used || reply.Text != rajeshDues {
		t.Fatalf("used %v:\n%s", used, reply.Text)
	}
	// A figure reworded (lakh) is not a figure the tools wrote either.
	m = &fakeModel{script: func(_ context.Context, step int, _ []reports.AgentMessage) (reports.AgentMessage, error) {
		if step == 1 {
			return call("c1", reports.ToolOutstanding, nil), nil
		}
		return say("In all ₹1.95 lakh is owed by 2 customers."), nil
	}}
	if reply, used = (&reports.Agent{Model: m, Tools: b.tools}).Ask(context.Background(), owner, "kul udhaar?"); used ||
		!strings.HasPrefix(reply.Text, "*Who owes us*: 2 customers, ₹1,95,000 in all") {
		t.Fatalf("lakh: used %v:\n%s", used, reply.Text)
	}
	// The same figures written differently pass: grouping, ₹, decimals.
	m = &fakeModel{script: func(_ context.Context, step int, _ []reports.AgentMessage) (reports.AgentMessage, error) {
		if step == 1 {
			return call("c1", reports.ToolOutstanding, nil), nil
		}
		return say("1. Sharma General Store: Rs 160000.00 (over limit by 10000)\n2. Rajesh: ₹35,000.\nTotal ₹1,95,000 from 2 customers."), nil
	}}
	if _, used = (&reports.Agent{Model: m, Tools: b.tools}).Ask(context.Background(), owner, "kaun kitna dega?"); !used {
		t.Fatal("figures as the tools wrote them were refused")
	}
}

func TestAgentLoopStopsAtMaxSteps(t *testing.T) {
	b := knownBooks(t)
	m := &fakeModel{script: func(_ context.Context, step int, _ []reports.AgentMessage) (reports.AgentMessage, error) {
		return call(fmt.Sprint("c", step), reports.ToolCheckStock, map[string]any{"product": "GC"}), nil
	}}
	reply, used := (&reports.Agent{Model: m, Tools: b.tools}).Ask(context.Background(), owner, "GC?")
	if used || !strings.HasPrefix(reply.Text, "*Glass Cleaner 500ml* (GC500)") {
		t.Fatalf("used %v:\n%s", used, reply.Text)
	}
	if m.steps != reports.DefaultMaxSteps {
		t.Fatalf("%d model steps, want %d", m.steps, reports.DefaultMaxSteps)
	}
	// Three steps' calls ran (the fourth has no step left to read them).
	if n := len(b.audits(t, reports.KindTool)); n != reports.DefaultMaxSteps-1 {
		t.Fatalf("%d tool calls, want %d", n, reports.DefaultMaxSteps-1)
	}
}

// TestAgentTimeouts: a model that never answers is given at most the step's
// time, and at most what is left of the question's; the results gathered
// so far answer. Each wait has a limit an hour long beside the one under
// test, so only the limit under test can end it.
func TestAgentTimeouts(t *testing.T) {
	b := knownBooks(t)
	// left is how long a step was given, by its context's deadline.
	left := func(ctx context.Context) time.Duration {
		if dl, ok := ctx.Deadline(); ok {
			return time.Until(dl)
		}
		return -1
	}
	var given time.Duration
	hang := func(ctx context.Context) (reports.AgentMessage, error) {
		given = left(ctx)
		<-ctx.Done()
		return reports.AgentMessage{}, ctx.Err()
	}
	ask := func(a *reports.Agent, question string) (reply domain.Reply, used bool) {
		patience.Within(t, "a question to a silent model", func() { reply, used = a.Ask(context.Background(), owner, question) })
		return reply, used
	}

	// A step that outlives its time limit.
	const step = 50 * time.Millisecond
	m := &fakeModel{script: func(ctx context.Context, n int, _ []reports.AgentMessage) (reports.AgentMessage, error) {
		if n == 1 {
			return call("c1", reports.ToolPendingOrders, nil), nil
		}
		return hang(ctx)
	}}
	reply, used := ask(&reports.Agent{Model: m, Tools: b.tools, StepTimeout: step, TotalTimeout: time.Hour}, "kya pending hai?")
	if used || !strings.HasPrefix(reply.Text, "*Pending orders*") {
		t.Fatalf("used %v:\n%s", used, reply.Text)
	}
	if given <= 0 || given > step {
		t.Fatalf("the step was given %v, want at most StepTimeout (%v)", given, step)
	}

	// The whole question's time limit: every step shares it.
	const total = 100 * time.Millisecond
	var first time.Duration
	m = &fakeModel{script: func(ctx context.Context, n int, _ []reports.AgentMessage) (reports.AgentMessage, error) {
		if n == 1 {
			first = left(ctx)
			return call("c", reports.ToolOutOfStock, nil), nil
		}
		return hang(ctx)
	}}
	reply, used = ask(&reports.Agent{Model: m, Tools: b.tools, StepTimeout: time.Hour, TotalTimeout: total, MaxSteps: 10}, "kya khatam?")
	if used || !strings.HasPrefix(reply.Text, "*Out of stock*") || m.steps > 2 {
		t.Fatalf("%d steps, used %v:\n%s", m.steps, used, reply.Text)
	}
	if first <= 0 || first > total {
		t.Fatalf("the first step was given %v, want at most TotalTimeout (%v)", first, total)
	}
	// Nothing gathered before the model failed: the help text.
	m = &fakeModel{script: func(ctx context.Context, _ int, _ []reports.AgentMessage) (reports.AgentMessage, error) {
		return reports.AgentMessage{}, errors.New("model unavailable")
	}}
	if reply, used = (&reports.Agent{Model: m, Tools: b.tools}).Ask(context.Background(), owner, "?"); used || reply.Text != reports.HelpText {
		t.Fatalf("model error: used %v %q", used, reply.Text)
	}
}

// TestAgentPermissions: the agent's calls go through the same role checks;
// a refused call's snapshot carries the polite refusal, and the person
// never sees a figure from it.
func TestAgentPermissions(t *testing.T) {
	b := knownBooks(t)
	var snap map[string]any
	m := &fakeModel{script: func(_ context.Context, step int, tr []reports.AgentMessage) (reports.AgentMessage, error) {
		if step == 1 {
			return call("c1", reports.ToolOutstanding, nil), nil
		}
		snap = tr[len(tr)-1].Results[0].Snapshot
		return say("Total dues are ₹1,95,000."), nil // a number it never got
	}}
	reply, used := (&reports.Agent{Model: m, Tools: b.tools}).Ask(context.Background(), sales, "total udhaar?")
	if used || !strings.HasPrefix(reply.Text, "Sorry Ravi, dues and outstanding are only shared with the owners and the accounts team.") {
		t.Fatalf("used %v: %q", used, reply.Text)
	}
	if snap["error"] != "unauthorized" || snap["rows"] != nil {
		t.Fatalf("refused snapshot %v", snap)
	}
	if n := len(b.audits(t, reports.KindRefusal)); n != 1 {
		t.Fatalf("%d refusals audited", n)
	}
}

// TestAgentSnapshotIsCompact: a big result reaches the model as the row
// count, the columns and the first rows only.
func TestAgentSnapshotIsCompact(t *testing.T) {
	b := knownBooks(t)
	b.tools.PageRows = 3
	res := b.call(t, owner, reports.ToolCheckStock, nil)
	snap := res.Snapshot(nil, 2)
	rows := snap["rows"].([][]any)
	if len(rows) != 2 || snap["row_count"] != 4 || snap["more_rows"] != 2 || len(snap["columns"].([]string)) != len(rows[0]) {
		t.Fatalf("snapshot %v", snap)
	}
	if tot := snap["totals"].(map[string]any); tot["ready_value_at_list_price"] != "₹3,45,800" || tot["out_of_stock"] != 2 {
		t.Fatalf("totals %v", tot)
	}
}

func TestAgentKeys(t *testing.T) {
	b := knownBooks(t)
	m := &fakeModel{script: func(_ context.Context, step int, _ []reports.AgentMessage) (reports.AgentMessage, error) {
		if step == 1 {
			return call("c1", reports.ToolPendingOrders, map[string]any{"customer": "Sharma"}), nil
		}
		return say("Sharma has 1 order to deliver: ORD-1005, ₹18,408."), nil
	}}
	reply, used, keys := (&reports.Agent{Model: m, Tools: b.tools}).AskKeys(context.Background(), owner, "Sharma ka kya pending hai?")
	if !used || len(keys.Customers) != 1 || keys.Customers[0] != "C02" {
		t.Fatalf("used %v %q, keys %+v", used, reply.Text, keys)
	}
}
