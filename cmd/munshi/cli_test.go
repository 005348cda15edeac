package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store/sqlite"
)

// cli runs munshi with args and the given environment.
func cli(t *testing.T, env map[string]string, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut, func(k string) string { return env[k] })
	return out.String(), errOut.String(), err
}

func TestImportCommand(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"MUNSHI_DB": filepath.Join(dir, "m.db")}
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o600)
		return p
	}
	out, _, err := cli(t, env, "", "import", "catalog", write("catalog.csv", string(demo.CatalogCSV)))
	if err != nil || !strings.Contains(out, "imported 14 catalog rows") {
		t.Fatalf("%q %v", out, err)
	}
	bad := "sku,name,aliases,unit,pack_sizes,price,gst_percent,stock_ready,stock_wip\n" +
		"NEW1,New Thing,,piece,,10,18,5,0\n" +
		"GC500,Glass Cleaner 500ml,GC,bottle,carton=24,abc,18,1,0\n"
	_, _, err = cli(t, env, "", "import", "catalog", write("bad.csv", bad))
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "price") {
		t.Fatalf("bad file: %v", err)
	}
	store, _ := sqlite.Open(context.Background(), env["MUNSHI_DB"])
	defer store.Close()
	ps, _ := store.Products(context.Background())
	if len(ps) != 14 {
		t.Fatalf("a refused file changed the catalog: %d products", len(ps))
	}
	for _, p := range ps {
		if p.SKU == "NEW1" || (p.SKU == "GC500" && p.StockReady != 2400) {
			t.Fatalf("half-imported: %+v", p)
		}
	}
	if _, _, err := cli(t, env, "", "import", "users", write("users.csv", "phone,name,role\n+919900000009,X,manager\n")); err == nil ||
		!strings.Contains(err.Error(), "line 2") {
		t.Fatalf("wrong role: %v", err)
	}
	if _, _, err := cli(t, env, "", "import", "stock", "x.csv"); !errors.Is(err, errUsage) {
		t.Fatalf("unknown kind: %v", err)
	}
	if _, _, err := cli(t, env, "", "import", "catalog", filepath.Join(dir, "missing.csv")); err == nil {
		t.Fatal("missing file accepted")
	}
}

func TestRouteJSONContract(t *testing.T) {
	env := map[string]string{"MUNSHI_DB": filepath.Join(t.TempDir(), "none.db")}
	out, _, err := cli(t, env, "10 carton GC for Rajesh cash\n\nGC ka stock kitna hai\n", "route", "--json")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines: %s", len(lines), out)
	}
	var first, second map[string]any
	json.Unmarshal([]byte(lines[0]), &first)
	json.Unmarshal([]byte(lines[1]), &second)
	for _, k := range []string{"text", "intent", "tier", "confidence", "latency_us"} {
		if _, ok := first[k]; !ok {
			t.Fatalf("missing %q in %s", k, lines[0])
		}
	}
	order, ok := first["order"].(map[string]any)
	if first["intent"] != "order" || !ok || order["customer_id"] != "C01" || order["payment"] != "cod" {
		t.Fatalf("order line: %s", lines[0])
	}
	items := order["items"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["sku"] != "GC500" || items[0].(map[string]any)["qty"] != 240.0 {
		t.Fatalf("items: %v", items)
	}
	if _, ok := second["order"]; ok || second["intent"] != "stock" {
		t.Fatalf("stock line: %s", lines[1])
	}
	if _, err := os.Stat(env["MUNSHI_DB"]); err == nil {
		t.Fatal("route created a database")
	}
	// Texts as arguments, and the unresolved shape with nulls.
	out, _, _ = cli(t, env, "", "route", "--json", "5 carton GC for Gupta")
	if !strings.Contains(out, `"customer_id":null`) || !strings.Contains(out, `"payment":null`) || !strings.Contains(out, "Gupta Brothers") {
		t.Fatalf("unresolved: %s", out)
	}
}

func TestChatCommand(t *testing.T) {
	env := map[string]string{"MUNSHI_DB": filepath.Join(t.TempDir(), "chat.db")}
	out, _, err := cli(t, env, "namaste\n\nhelp\n", "chat", "--demo", "--as", demo.SalesPhone)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Namaste Ravi") || strings.Count(out, "munshi>") != 2 {
		t.Fatalf("chat output:\n%s", out)
	}
	out, _, _ = cli(t, env, "hi\n", "chat", "--as", "+15550001111")
	if !strings.Contains(out, "not registered") {
		t.Fatalf("unknown user chat:\n%s", out)
	}
	if _, _, err := cli(t, env, "", "chat", "--as", "12345"); !errors.Is(err, errUsage) {
		t.Fatalf("bad phone: %v", err)
	}
}

func TestServeHelpAndBadConfig(t *testing.T) {
	_, stderr, err := cli(t, nil, "", "serve", "--help")
	if !errors.Is(err, errUsage) {
		t.Fatalf("help: %v", err)
	}
	for _, name := range []string{"MUNSHI_ADDR", "MUNSHI_DB", "MUNSHI_PUBLIC_URL", "REDIS_URL", "TWILIO_ACCOUNT_SID",
		"TWILIO_AUTH_TOKEN", "TWILIO_WHATSAPP_FROM", "TWILIO_API_URL", "SMTP_URL", "MAIL_FROM", "ACCOUNTS_EMAIL",
		"GEMINI_API_KEY", "GEMINI_MODEL", "GEMINI_BASE_URL"} {
		if !strings.Contains(stderr, name) {
			t.Errorf("serve --help does not list %s", name)
		}
	}
	_, stderr, err = cli(t, map[string]string{"TWILIO_ACCOUNT_SID": "AC123", "MUNSHI_BUDGET": "20s"}, "", "serve")
	if !errors.Is(err, errUsage) || !strings.Contains(stderr, "TWILIO_AUTH_TOKEN") || !strings.Contains(stderr, "MUNSHI_BUDGET") {
		t.Fatalf("bad config: %v %s", err, stderr)
	}
	if _, _, err := cli(t, nil, "", "frobnicate"); !errors.Is(err, errUsage) {
		t.Fatalf("unknown command: %v", err)
	}
	if _, _, err := cli(t, nil, ""); !errors.Is(err, errUsage) {
		t.Fatalf("no command: %v", err)
	}
}

func TestEvalCommand(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "set.jsonl")
	os.WriteFile(p, []byte(`{"text":"GC ka stock kitna hai","intent":"stock"}`+"\n"+`{"text":"namaste","intent":"greeting"}`+"\n"), 0o600)
	out, _, err := cli(t, map[string]string{"MUNSHI_DB": filepath.Join(dir, "none.db")}, "", "eval", p)
	if err != nil || !strings.Contains(strings.ToLower(out), "precision") {
		t.Fatalf("eval: %v\n%s", err, out)
	}
	os.WriteFile(p, []byte("{not json\n"), 0o600)
	if _, _, err := cli(t, nil, "", "eval", p); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("malformed eval file: %v", err)
	}
}

func TestImportWhileServingIsPickedUp(t *testing.T) {
	old := CatalogPoll
	CatalogPoll = 20 * time.Millisecond
	t.Cleanup(func() { CatalogPoll = old })
	m := startMain(t, newFakeTwilio(t).URL, nil)
	if r := say(t, m, "SMimp1", demo.SalesPhone, "10 carton GC for Verma Stores, cash"); !strings.Contains(r, "Verma Stores") || strings.Contains(r, "Reply *ok*") {
		t.Fatalf("before import: %s", r)
	}
	// What `munshi import customers` writes, while the server runs.
	err := m.Store.UpsertCustomers(context.Background(), []domain.Customer{{ID: "C10", Name: "Verma Stores", Aliases: []string{"Verma"},
		Segment: "kirana", CreditLimit: 5000000, PaymentModes: []domain.PaymentMode{domain.PayCOD}}})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for i := 0; ; i++ {
		r := say(t, m, fmt.Sprintf("SMimp%d", i+2), demo.SalesPhone, "10 carton GC for Verma Stores, cash")
		if strings.Contains(r, "*Order ORD-") && strings.Contains(r, "Verma Stores") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the imported customer was never recognised: %s", r)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
