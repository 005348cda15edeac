package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/reportstest"
)

// mcpStore opens a database with the known books of reportstest and their
// payments.
func mcpStore(t *testing.T) (store.Store, string) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "munshi.db")
	s, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := reportstest.Known(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := reportstest.KnownPayments(ctx, s); err != nil {
		t.Fatal(err)
	}
	return s, path
}

func mcpText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// checkMCPSession lists and calls the tools through a connected client.
func checkMCPSession(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
	t.Helper()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		spec := specNamed(t, tool.Name)
		if tool.Description != spec.Description || tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s: description or read-only hint differ from the spec", tool.Name)
		}
		schema, _ := json.Marshal(tool.InputSchema)
		var s struct {
			Properties map[string]any `json:"properties"`
		}
		json.Unmarshal(schema, &s)
		var props, params []string
		for p := range s.Properties {
			props = append(props, p)
		}
		for _, p := range spec.Parameters {
			params = append(params, p.Name)
		}
		sort.Strings(props)
		sort.Strings(params)
		if !slices.Equal(props, params) {
			t.Errorf("%s: schema properties %v, spec parameters %v", tool.Name, props, params)
		}
	}
	var want []string
	for _, s := range reports.Specs() {
		want = append(want, s.Name)
	}
	sort.Strings(names)
	sort.Strings(want)
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	if slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, "sql") }) {
		t.Fatal("a raw-SQL tool is served")
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: reports.ToolCheckStock, Arguments: map[string]any{"product": "phenyl", "quantity": 200, "unit": "carton"}})
	if err != nil || res.IsError {
		t.Fatalf("check_stock: %v %+v", err, res)
	}
	if text := mcpText(t, res); !strings.HasPrefix(text, "❌ Not from stock: 2,400 bottles (200 cartons) of Phenyl 1L asked, 1,560 bottles available") {
		t.Fatalf("check_stock text:\n%s", text)
	}
	var snap map[string]any
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &snap); err != nil || snap["tool"] != reports.ToolCheckStock || snap["row_count"] != 1.0 {
		t.Fatalf("structured content %s", raw)
	}
	if tot := snap["totals"].(map[string]any); tot["can_commit"] != false || tot["short_by"] != 840.0 {
		t.Fatalf("totals %v", tot)
	}

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: reports.ToolOutstanding, Arguments: map[string]any{}})
	if err != nil || res.IsError || !strings.HasPrefix(mcpText(t, res), "*Who owes us*: 2 customers, ₹1,95,000 in all") {
		t.Fatalf("outstanding: %v\n%s", err, mcpText(t, res))
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: reports.ToolSalesSummary, Arguments: map[string]any{"period": "last_week", "product": "GC500"}})
	if err != nil || res.IsError || !strings.HasPrefix(mcpText(t, res), "*Who bought Glass Cleaner 500ml*, last week") {
		t.Fatalf("sales: %v\n%s", err, mcpText(t, res))
	}
	checkMCPPayments(t, ctx, cs)
	// Bad arguments are tool errors, never a crash: an unknown product, a
	// grouping outside the enum, an argument the tool does not take.
	for _, bad := range []mcp.CallToolParams{
		{Name: reports.ToolCheckStock, Arguments: map[string]any{"product": "unobtainium"}},
		{Name: reports.ToolSalesSummary, Arguments: map[string]any{"by": "salesman"}},
		{Name: reports.ToolOutOfStock, Arguments: map[string]any{"sql": "SELECT * FROM users"}},
		{Name: reports.ToolPaymentsReceived, Arguments: map[string]any{"mode": "bitcoin"}},
		{Name: reports.ToolPaymentsReceived, Arguments: map[string]any{"from": "1900-01-01", "to": "2999-12-31"}},
		{Name: reports.ToolPaymentsReceived, Arguments: map[string]any{"by": "salesman"}},
	} {
		res, err := cs.CallTool(ctx, &bad)
		if err != nil || !res.IsError {
			t.Errorf("%s %v: %v %+v", bad.Name, bad.Arguments, err, res)
		}
	}
}

// checkMCPPayments asks for the payments received by dates, by mode: the
// WhatsApp text, and the snapshot's totals to the paisa. The books' clock
// is the real one here, so the period is given by dates.
func checkMCPPayments(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: reports.ToolPaymentsReceived,
		Arguments: map[string]any{"from": "2026-03-09", "to": "2026-03-14", "by": "mode"}})
	if err != nil || res.IsError {
		t.Fatalf("payments_received: %v\n%s", err, mcpText(t, res))
	}
	if text := mcpText(t, res); !strings.HasPrefix(text, "*Payments received* · 9–14 Mar\n₹50,235.06 in 6 payments from 3 customers\n\n• Cheque: ₹25,000") {
		t.Fatalf("payments_received text:\n%s", text)
	}
	var snap map[string]any
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &snap); err != nil || snap["tool"] != reports.ToolPaymentsReceived || snap["row_count"] != 4.0 {
		t.Fatalf("structured content %s", raw)
	}
	if tot := snap["totals"].(map[string]any); tot["received"] != "₹50,235.06" || tot["payments"] != 6.0 || tot["by"] != "mode" {
		t.Fatalf("totals %v", tot)
	}
}

func specNamed(t *testing.T, name string) reports.ToolSpec {
	for _, s := range reports.Specs() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no spec %s", name)
	return reports.ToolSpec{}
}

// TestMCPInMemory: an MCP client lists and calls the tools over the SDK's
// in-memory transport, and every call is audited as "mcp" with the
// owner's permissions.
func TestMCPInMemory(t *testing.T) {
	ctx := context.Background()
	store, _ := mcpStore(t)
	log := audit.New(store, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	tools, err := mcpTools(ctx, store, log)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := newMCPServer(tools).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	checkMCPSession(t, ctx, cs)

	entries, err := store.AuditEntries(ctx, reports.KindTool)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) < 4 {
		t.Fatalf("%d tool calls audited", len(entries))
	}
	for _, e := range entries {
		if e.Actor != "mcp" || e.Detail["role"] != "owner" {
			t.Fatalf("audited as %q (%v)", e.Actor, e.Detail["role"])
		}
	}
}

// TestMCPStdio runs `munshi mcp` itself, talking over its stdin and stdout.
func TestMCPStdio(t *testing.T) {
	_, path := mcpStore(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	toServer, serverIn := io.Pipe()
	fromServer, serverOut := io.Pipe()
	var stderr bytes.Buffer
	env := environment{stdin: toServer, stdout: serverOut, stderr: &stderr, getenv: func(k string) string {
		return map[string]string{"MUNSHI_DB": path, "MUNSHI_LOG_LEVEL": "warn"}[k]
	}}
	done := make(chan error, 1)
	go func() {
		done <- cmdMCP(ctx, env, nil)
		serverOut.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx,
		&mcp.IOTransport{Reader: fromServer, Writer: serverIn}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	checkMCPSession(t, ctx, cs)
	cs.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("munshi mcp: %v\n%s", err, stderr.String())
		}
	case <-ctx.Done():
		t.Fatal("munshi mcp did not stop when its client went away")
	}
	if err := cmdMCP(ctx, env, []string{"extra"}); err != errUsage {
		t.Fatalf("munshi mcp extra: %v", err)
	}
}
