package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestDigestSendOnce: "munshi digest --send" goes through the same claims
// as the scheduled run: a second send of the same date sends nothing, and
// the brief is printed each time.
func TestDigestSendOnce(t *testing.T) {
	env := map[string]string{"MUNSHI_DB": filepath.Join(t.TempDir(), "m.db")}
	out, errOut, err := cli(t, env, "", "digest", "--demo", "--date", "2026-03-13", "--send")
	if err != nil {
		t.Fatalf("digest --send: %v\n%s", err, errOut)
	}
	if !strings.Contains(out, "Munshi digest · Fri 13 Mar") || !strings.Contains(out, "sent the digest of 2026-03-13") ||
		strings.Contains(out, "0 briefs, 0 templates, 0 by email only") {
		t.Fatalf("first send printed:\n%s", out)
	}
	out, errOut, err = cli(t, env, "", "digest", "--date", "2026-03-13", "--send")
	if err != nil {
		t.Fatalf("second digest --send: %v\n%s", err, errOut)
	}
	if !strings.Contains(out, "0 briefs, 0 templates, 0 by email only, 0 mails;") || strings.Contains(out, "; 0 sent before") {
		t.Fatalf("second send printed:\n%s", out)
	}
	if _, _, err := cli(t, env, "", "digest", "--date", "13/03/2026"); !errors.Is(err, errUsage) {
		t.Errorf("a bad date = %v, want a usage error", err)
	}
}
