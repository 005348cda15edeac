package main

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/internal/gemini/geminitest"
)

// itemSource is a small ERP, an item and a party master, whose item
// aliases sit in a column named Fld7, which discovery cannot place by
// itself; its values hold digits.
func itemSource(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "items.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE TABLE ItemMaster (ItmCd VARCHAR(12) PRIMARY KEY, ItmNm VARCHAR(80), Rt DECIMAL(12,2), Fld7 VARCHAR(40))`)
	exec(`CREATE TABLE PartyMaster (PartyCd VARCHAR(8) PRIMARY KEY, PartyNm VARCHAR(80), Mob VARCHAR(20))`)
	words := []string{"Glass Cleaner", "Phenyl", "Floor Cleaner", "Toilet Cleaner", "Hand Wash", "Dish Wash", "Bleach"}
	for i := range 21 {
		w, size := words[i%len(words)], []string{"500ml", "1L", "5L"}[i/len(words)]
		exec(`INSERT INTO ItemMaster VALUES (?,?,?,?)`, fmt.Sprintf("%s%03d", strings.ToUpper(w[:2]), 100+i),
			w+" "+size, fmt.Sprintf("%d.50", 45+i*13), strings.ToLower(w[:2])+" "+size)
		exec(`INSERT INTO PartyMaster VALUES (?,?,?)`, fmt.Sprintf("C%03d", i+1), []string{"Sharma", "Gupta", "Verma"}[i%3]+" Traders "+words[i%len(words)][:3],
			fmt.Sprintf("+91 98%08d", 10000000+i*7919))
	}
	return "sqlite:" + path
}

// TestConnectAsksGeminiOnlyWithAKey: with GEMINI_API_KEY, connect asks
// the fake Gemini about the column it could not place, showing at most
// five values with digits masked, and marks the field it names as a
// suggestion; a failed call is no suggestion; without the key nothing is
// asked and the draft has no suggestion.
func TestConnectAsksGeminiOnlyWithAKey(t *testing.T) {
	dsn := itemSource(t)
	g := geminitest.Start(t, geminitest.Text(`{"field":"aliases"}`))
	withKey := map[string]string{"GEMINI_API_KEY": geminitest.APIKey, "GEMINI_MODEL": geminitest.Model, "GEMINI_BASE_URL": g.URL}
	draft, report, err := cli(t, withKey, "", "connect", "--source", dsn)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, report)
	}
	if g.Hits() == 0 {
		t.Fatalf("Gemini was not asked:\n%s", report)
	}
	asked := false
	for i := range g.Hits() {
		var col struct {
			Column  string   `json:"column"`
			Samples []string `json:"samples"`
		}
		g.Data(i, "ERP column (data)", &col)
		if len(col.Samples) > 5 || strings.ContainsAny(strings.Join(col.Samples, ""), "012345678") {
			t.Errorf("%s sent as %q", col.Column, col.Samples)
		}
		asked = asked || col.Column == "ItemMaster.Fld7" && len(col.Samples) > 0
	}
	if !asked {
		t.Errorf("Fld7 was not asked about")
	}
	m, err := erpsync.Parse([]byte(draft), func(k string) string {
		if k == "ERP_DSN" {
			return dsn
		}
		return ""
	})
	if err != nil {
		t.Fatalf("the draft does not parse: %v\n%s", err, draft)
	}
	al := m.Entities[erpsync.Products].Fields["aliases"]
	if al == nil || al.Column != "Fld7" || !al.Suggested {
		t.Fatalf("aliases %+v in\n%s", al, draft)
	}
	if !strings.Contains(report, "suggested by the model") || !strings.Contains(report, "Suggestions: asked "+geminitest.Model) ||
		strings.Contains(report, geminitest.APIKey) {
		t.Errorf("the report does not say a suggestion was asked:\n%s", report)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "draft.yaml")
	os.WriteFile(file, []byte(draft), 0o600)
	if out, _, err := cli(t, map[string]string{"ERP_DSN": dsn, "MUNSHI_DB": filepath.Join(dir, "munshi.db")}, "", "sync", "--config", file, "--check"); err != nil {
		t.Errorf("sync --check of the draft with a suggestion: %v\n%s", err, out)
	}

	g.Script(geminitest.ServerError)
	draft, report, err = cli(t, withKey, "", "connect", "--source", dsn)
	if err != nil || strings.Contains(draft, "suggested: true") || !strings.Contains(report, "1 asked, 0 named, 1 failed") {
		t.Errorf("with Gemini failing: %v\n%s\n%s", err, draft, report)
	}

	hits := g.Hits()
	draft, report, err = cli(t, map[string]string{}, "", "connect", "--source", dsn)
	if err != nil || g.Hits() != hits || strings.Contains(draft, "suggested: true") || strings.Contains(report, "Suggestions:") {
		t.Errorf("without a key: %v, %d requests\n%s\n%s", err, g.Hits()-hits, draft, report)
	}
}
