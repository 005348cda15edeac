package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
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
	books, _ := store.Open(context.Background(), env["MUNSHI_DB"])
	defer books.Close()
	ps, _ := books.Products(context.Background())
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
	// Each decision says why: the rule that fired, or why a tier abstained.
	for _, l := range []map[string]any{first, second} {
		if r, _ := l["reason"].(string); r == "" {
			t.Fatalf("no reason in %v", l)
		}
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
	out, errOut, err := cli(t, env, "namaste\n\nhelp\n", "chat", "--demo", "--as", demo.SalesPhone)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(errOut, "database is closed") {
		t.Errorf("the dispatcher outlived the database:\n%s", errOut)
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
	for _, want := range []string{"delivery", "payment", "stock_received", "order_status",
		"False order: 0", "False delivery: 0  false payment: 0  false stock received: 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("eval output lacks %q:\n%s", want, out)
		}
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
		if strings.Contains(r, "*Order D-") && strings.Contains(r, "Verma Stores") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the imported customer was never recognised: %s", r)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestCLIRefusesBadInput feeds every command that takes input what a
// mistaken or hostile operator might: each must fail with a clear error
// (or succeed harmlessly), never panic, and a refused import must leave no
// database behind.
func TestCLIRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	env := map[string]string{"MUNSHI_DB": db}
	write := func(name string, body []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, body, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sparse := func(name string, size int64) string {
		p := write(name, nil)
		if err := os.Truncate(p, size); err != nil {
			t.Fatal(err)
		}
		return p
	}
	binary := make([]byte, 4096)
	for i := range binary {
		binary[i] = byte(i*131 + 7)
	}
	const header = "id,name,aliases,phone,segment,credit_limit,outstanding,payment_modes\n"

	bad := []struct {
		name  string
		args  []string
		stdin string
		want  []string // words the error or stderr must hold
		usage bool     // exit status 2
	}{
		{name: "import: missing file", args: []string{"import", "catalog", filepath.Join(dir, "missing.csv")}, want: []string{"no such file"}},
		{name: "import: a directory", args: []string{"import", "customers", dir}, want: []string{"is a directory"}},
		{name: "import: huge file", args: []string{"import", "users", sparse("huge.csv", 33<<20)}, want: []string{"larger than 32 MiB"}},
		{name: "import: binary file", args: []string{"import", "catalog", write("bin.csv", binary)}, want: []string{"line 1", "UTF-8"}},
		{name: "import: empty file", args: []string{"import", "users", write("empty.csv", nil)}, want: []string{"empty file", "header"}},
		{name: "import: hostile rows", args: []string{"import", "customers", write("hostile.csv", []byte(header+
			"C01,\"Rajesh\x00\",,,kirana,0,0,cod\n"+
			"C02,Sharma \u202Eerots,,,kirana,0,0,cod\n"+
			"C03,Mehta,ok,,kirana,0,-5000,cod\n"))},
			want: []string{"line 2", "U+0000", "line 3", "U+202E", "line 4", `alias "ok"`, "outstanding", "negative"}},
		{name: "import: unknown kind", args: []string{"import", "orders.csv", "x.csv"}, want: []string{"unknown file kind"}, usage: true},
		{name: "import: no file", args: []string{"import", "catalog"}, want: []string{"usage"}, usage: true},
		{name: "eval: missing file", args: []string{"eval", filepath.Join(dir, "missing.jsonl")}, want: []string{"no such file"}},
		{name: "eval: a directory", args: []string{"eval", dir}, want: []string{"is a directory"}},
		{name: "eval: huge file", args: []string{"eval", sparse("huge.jsonl", maxEvalBytes+1)}, want: []string{"larger than 64 MiB"}},
		{name: "eval: binary file", args: []string{"eval", write("bin.jsonl", binary)}, want: []string{"line 1"}},
		{name: "eval: empty file", args: []string{"eval", write("empty.jsonl", nil)}, want: []string{"no labelled messages"}},
		{name: "eval: unknown intent", args: []string{"eval", write("odd.jsonl", []byte(`{"text":"hi","intent":"dance"}`+"\n"))}, want: []string{"line 1", `"dance"`}},
		{name: "eval: negative quantity label", args: []string{"eval", write("neg.jsonl", []byte(`{"text":"5 ctn GC","intent":"order","items":[{"sku":"GC500","qty":-5}]}`+"\n"))},
			want: []string{"line 1", "above zero"}},
		{name: "route: a line over 1 MiB", args: []string{"route"}, stdin: "GC ka stock\n" + strings.Repeat("x", maxRouteLine+1) + "\n", want: []string{"line 2", "longer than 1 MiB"}},
		{name: "route: database that is not one", args: []string{"route", "hi"}, want: []string{"not a database"}},
		{name: "forget: short phone", args: []string{"forget", "12345"}, want: []string{"E.164"}, usage: true},
		{name: "forget: empty phone", args: []string{"forget", ""}, want: []string{"E.164"}, usage: true},
		{name: "forget: Devanagari digits", args: []string{"forget", "+९१९८१००००००१"}, want: []string{"E.164"}, usage: true},
		{name: "forget: NUL and controls", args: []string{"forget", "+91981\x00\x1b[2J0000001"}, want: []string{"E.164"}, usage: true},
		{name: "forget: far too long", args: []string{"forget", "+" + strings.Repeat("9", 10000)}, want: []string{"E.164"}, usage: true},
		{name: "forget: a flag for a phone", args: []string{"forget", "--phone"}, usage: true},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			e := env
			if strings.HasPrefix(tc.name, "route: database") {
				e = map[string]string{"MUNSHI_DB": write("garbage.db", []byte("this is not SQLite\n"))}
			}
			_, stderr, err := cli(t, e, tc.stdin, tc.args...)
			if err == nil {
				t.Fatalf("accepted; want an error")
			}
			if errors.Is(err, errUsage) != tc.usage {
				t.Errorf("error %v: usage = %v, want %v", err, errors.Is(err, errUsage), tc.usage)
			}
			msg := err.Error() + "\n" + stderr
			for _, w := range tc.want {
				if !strings.Contains(strings.ToLower(msg), strings.ToLower(w)) {
					t.Errorf("the error does not say %q:\n%s", w, msg)
				}
			}
			if _, err := os.Stat(db); err == nil {
				t.Errorf("a refused command created the database")
			}
		})
	}

	// Hostile text to route is routed, not refused, and never breaks the
	// JSON lines.
	stdin := "ok\x00\x01\x7f\n" + string(binary[:200]) + "\n\u202E5 ctn GC for Rajesh\n-5 carton GC for Rajesh\n"
	out, _, err := cli(t, env, stdin, "route", "--json")
	if err != nil {
		t.Fatalf("route of hostile text: %v", err)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil || v["intent"] == nil {
			t.Errorf("not a JSON decision: %q (%v)", l, err)
		}
	}
	if !strings.Contains(out, "A quantity can't be negative.") {
		t.Errorf("the negative order asks nothing:\n%s", out)
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("route created the database")
	}
}

// The links in a chat's replies open while the chat runs: it serves its own
// files when no MUNSHI_PUBLIC_URL points elsewhere.
func TestChatServesItsFiles(t *testing.T) {
	env := map[string]string{"MUNSHI_DB": filepath.Join(t.TempDir(), "chat.db")}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(context.Background(), []string{"chat", "--demo", "--as", demo.OwnerPhone}, inR, outW, io.Discard,
			func(k string) string { return env[k] })
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	go fmt.Fprintln(inW, "last 30 days sales ka chart bhejo")
	var links []string // the page's link in the text, then the picture's
	for lines.Scan() {
		for _, w := range strings.Fields(lines.Text()) {
			if strings.Contains(w, "/media/") && !strings.HasSuffix(w, "/media/") {
				links = append(links, w)
			}
		}
		if strings.Contains(lines.Text(), "[media]") {
			break
		}
	}
	want := map[string]string{".png": "image/png", ".html": "text/html"}
	if len(links) != len(want) {
		t.Fatalf("the chart reply carries links %q; want the page and the picture", links)
	}
	for _, u := range links {
		if !strings.HasPrefix(u, "http://127.0.0.1:") {
			t.Errorf("link %s is not on the chat's loopback server", u)
		}
		resp, err := http.Get(u)
		if err != nil {
			t.Fatalf("GET %s: %v", u, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		ct := want[path.Ext(u)]
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), ct) || len(body) == 0 {
			t.Errorf("GET %s: %d %q, %d bytes; want 200 %s", u, resp.StatusCode, resp.Header.Get("Content-Type"), len(body), ct)
		}
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if resp, err := http.Get(links[0]); err == nil {
		resp.Body.Close()
		t.Errorf("the chat's file server still answers after the chat ended: %d", resp.StatusCode)
	}
}

// Each command's --help lists the environment variables it reads and no
// others; the overview names every command.
func TestHelpNamesWhatEachCommandReads(t *testing.T) {
	_, stderr, _ := cli(t, nil, "", "forget", "--help")
	if !strings.Contains(stderr, "REDIS_URL") || strings.Contains(stderr, "TWILIO_AUTH_TOKEN") {
		t.Errorf("forget --help:\n%s", stderr)
	}
	_, stderr, _ = cli(t, nil, "", "eval", "--help")
	if !strings.Contains(stderr, "MUNSHI_DB") || strings.Contains(stderr, "SMTP_URL") {
		t.Errorf("eval --help:\n%s", stderr)
	}
	out, _, err := cli(t, nil, "", "--help")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"serve [--demo]", "chat --as PHONE", "route [--json]", "eval FILE.jsonl",
		"import catalog|customers|users", "import orders|payments", "digest [--date", "--demo]", "forget PHONE", "mcp", "migrate --from"} {
		if !strings.Contains(out, c) {
			t.Errorf("munshi --help leaves out %q", c)
		}
		if !strings.Contains(string(doc), c) && c != "digest [--date" {
			t.Errorf("the package doc leaves out %q", c)
		}
	}
}
