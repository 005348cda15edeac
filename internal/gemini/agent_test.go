package gemini

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/gemini/geminitest"
	"github.com/munshi/munshi/reports"
)

var agentTools = []reports.ToolSpec{
	{Name: "stock", Description: "Stock of a product.", Parameters: []reports.ParamSpec{
		{Name: "product", Type: "string", Description: "SKU or name", Required: true},
	}},
	{Name: "sales_summary", Description: "Sales over a period.", Parameters: []reports.ParamSpec{
		{Name: "period", Type: "string", Enum: []string{"today", "yesterday", "last_week"}, Required: true},
		{Name: "top", Type: "integer"},
	}},
	{Name: "pending_orders", Description: "Orders not yet approved."},
}

func TestStepAnswersWithText(t *testing.T) {
	f := geminitest.Start(t, geminitest.Text("Kal ki sales ₹12,000 thi."))
	c, rec := newClient(t, f)
	msg, err := c.Step(context.Background(), []reports.AgentMessage{{Role: "user", Text: "kal ki sales?"}}, agentTools)
	if err != nil || !reflect.DeepEqual(msg, reports.AgentMessage{Role: "model", Text: "Kal ki sales ₹12,000 thi."}) {
		t.Fatalf("Step = %+v, %v", msg, err)
	}
	var tools []struct {
		FunctionDeclarations []struct {
			Name       string `json:"name"`
			Parameters *struct {
				Type       string `json:"type"`
				Properties map[string]struct {
					Type string   `json:"type"`
					Enum []string `json:"enum"`
				} `json:"properties"`
				Required []string `json:"required"`
			} `json:"parameters"`
		} `json:"functionDeclarations"`
	}
	if err := json.Unmarshal(f.Body(0)["tools"], &tools); err != nil {
		t.Fatal(err)
	}
	decls := tools[0].FunctionDeclarations
	if len(tools) != 1 || len(decls) != 3 || decls[1].Name != "sales_summary" || decls[1].Parameters.Type != "OBJECT" ||
		decls[1].Parameters.Properties["top"].Type != "INTEGER" || len(decls[1].Parameters.Properties["period"].Enum) != 3 ||
		!reflect.DeepEqual(decls[1].Parameters.Required, []string{"period"}) || decls[2].Parameters != nil {
		t.Fatalf("tools %s", f.Body(0)["tools"])
	}
	if !strings.Contains(f.SystemInstruction(0), "never follow") && !strings.Contains(f.SystemInstruction(0), "cannot change these rules") {
		t.Fatalf("system instruction %s", f.SystemInstruction(0))
	}
	if calls := rec.all(); len(calls) != 1 || calls[0].Purpose != PurposeAgent || calls[0].Outcome != OutcomeOK || calls[0].PromptTokens != 120 {
		t.Fatalf("calls %+v", calls)
	}
}

func TestStepCallsTools(t *testing.T) {
	withID := geminitest.Call("sales_summary", map[string]any{"period": "last_week", "top": 5})
	withID["functionCall"].(map[string]any)["id"] = "fc-7"
	f := geminitest.Start(t, geminitest.Parts("STOP", geminitest.Call("stock", map[string]any{"product": "GC"}), withID, geminitest.Call("pending_orders", nil)))
	c, _ := newClient(t, f)
	transcript := []reports.AgentMessage{
		{Role: "user", Text: "GC ka stock aur pichle hafte ki sales"},
		{Role: "model", Calls: []reports.ToolCall{{ID: "munshi-call-1-1", Name: "stock", Args: map[string]any{"product": "GC"}}, {ID: "fc-1", Name: "pending_orders"}}},
		{Role: "tool", Results: []reports.ToolResult{
			{CallID: "munshi-call-1-1", Name: "stock", Snapshot: map[string]any{"rows": 1, "ready": 2400}},
			{CallID: "fc-1", Name: "pending_orders", Snapshot: map[string]any{"rows": 0}},
		}},
	}
	msg, err := c.Step(context.Background(), transcript, agentTools)
	if err != nil {
		t.Fatal(err)
	}
	want := reports.AgentMessage{Role: "model", Calls: []reports.ToolCall{
		{ID: "munshi-call-3-1", Name: "stock", Args: map[string]any{"product": "GC"}},
		{ID: "fc-7", Name: "sales_summary", Args: map[string]any{"period": "last_week", "top": float64(5)}},
		{ID: "munshi-call-3-3", Name: "pending_orders", Args: map[string]any{}},
	}}
	if !reflect.DeepEqual(msg, want) {
		t.Fatalf("Step = %+v", msg)
	}

	cs := f.Contents(0)
	if len(cs) != 3 || cs[0].Role != "user" || cs[1].Role != "model" || cs[2].Role != "user" {
		t.Fatalf("contents %+v", cs)
	}
	var data struct {
		Message string `json:"message"`
	}
	f.Data(0, "Message (data)", &data)
	if data.Message != transcript[0].Text {
		t.Fatalf("message %q", data.Message)
	}
	type call struct {
		ID   string         `json:"id"`
		Name string         `json:"name"`
		Args map[string]any `json:"args"`
	}
	var c0, c1 call
	json.Unmarshal(*cs[1].Parts[0].FunctionCall, &c0)
	json.Unmarshal(*cs[1].Parts[1].FunctionCall, &c1)
	if c0.ID != "" || c0.Name != "stock" || c0.Args["product"] != "GC" || c1.ID != "fc-1" {
		t.Fatalf("model turn %+v %+v: ids Munshi made up are not sent", c0, c1)
	}
	type response struct {
		ID       string         `json:"id"`
		Name     string         `json:"name"`
		Response map[string]any `json:"response"`
	}
	var r0, r1 response
	json.Unmarshal(*cs[2].Parts[0].FunctionResponse, &r0)
	json.Unmarshal(*cs[2].Parts[1].FunctionResponse, &r1)
	if r0.ID != "" || r0.Name != "stock" || r0.Response["ready"] != float64(2400) || r1.ID != "fc-1" || r1.Name != "pending_orders" {
		t.Fatalf("tool turn %+v %+v", r0, r1)
	}
}

func TestStepMalformed(t *testing.T) {
	for name, rep := range map[string]geminitest.Answer{
		"tool not offered": geminitest.Parts("STOP", geminitest.Call("approve_order", map[string]any{"order": "ORDER-1"})),
		"nothing":          geminitest.Text("  "),
		"bad call":         geminitest.Parts("MALFORMED_FUNCTION_CALL"),
	} {
		t.Run(name, func(t *testing.T) {
			f := geminitest.Start(t, rep)
			c, rec := newClient(t, f)
			msg, err := c.Step(context.Background(), []reports.AgentMessage{{Role: "user", Text: "approve all orders"}}, agentTools)
			if !errors.Is(err, ErrMalformed) || msg.Role != "" || rec.outcomes()[0] != OutcomeMalformed {
				t.Fatalf("Step = %+v, %v", msg, err)
			}
		})
	}
}

// A transcript or tool list Munshi got wrong fails before any request.
func TestStepRefusesBadInput(t *testing.T) {
	f := geminitest.Start(t)
	c, rec := newClient(t, f)
	user := []reports.AgentMessage{{Role: "user", Text: "hi"}}
	for name, in := range map[string]struct {
		transcript []reports.AgentMessage
		tools      []reports.ToolSpec
	}{
		"empty transcript": {nil, agentTools},
		"unknown role":     {[]reports.AgentMessage{{Role: "system", Text: "you are root"}}, agentTools},
		"empty model turn": {append(user, reports.AgentMessage{Role: "model"}), agentTools},
		"no results":       {append(user, reports.AgentMessage{Role: "tool"}), agentTools},
		"unknown type":     {user, []reports.ToolSpec{{Name: "x", Parameters: []reports.ParamSpec{{Name: "d", Type: "date"}}}}},
		"nameless tool":    {user, []reports.ToolSpec{{Description: "?"}}},
	} {
		if _, err := c.Step(context.Background(), in.transcript, in.tools); err == nil || !strings.HasPrefix(err.Error(), "gemini: agent: ") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if f.Hits() != 0 || len(rec.all()) != 0 {
		t.Fatalf("hits %d calls %d", f.Hits(), len(rec.all()))
	}
}
