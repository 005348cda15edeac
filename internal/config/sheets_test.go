package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/config"
)

// serviceKey writes a service account key file (the key itself is no
// real key) and returns its path.
func serviceKey(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "key.json")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

const goodKey = `{"type":"service_account","project_id":"munshi-test","private_key_id":"0","private_key":"-----BEGIN PRIVATE KEY-----\nMII\n-----END PRIVATE KEY-----\n","client_email":"munshi@munshi-test.iam.gserviceaccount.com","client_id":"1"}`

func TestSheetsConfig(t *testing.T) {
	key := serviceKey(t, goodKey)
	id := "1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abc"
	c := config.FromEnv(full.with(env{"MUNSHI_SHEETS_ID": "https://docs.google.com/spreadsheets/d/" + id + "/edit#gid=0",
		"GOOGLE_APPLICATION_CREDENTIALS": key, "MUNSHI_SHEETS_SYNC": "10m"}).get)
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.SheetsID != id || c.GoogleCredentials != key || c.SheetsSync != 10*time.Minute {
		t.Errorf("read %q %q %v", c.SheetsID, c.GoogleCredentials, c.SheetsSync)
	}
	// A fake needs no credentials.
	if err := config.FromEnv(full.with(env{"MUNSHI_SHEETS_ID": id, "SHEETS_API_URL": "http://127.0.0.1:1/"}).get).Validate(); err != nil {
		t.Errorf("with SHEETS_API_URL: %v", err)
	}
	// Without MUNSHI_SHEETS_ID the credentials are not Munshi's business.
	if err := config.FromEnv(full.with(env{"GOOGLE_APPLICATION_CREDENTIALS": "/nowhere.json"}).get).Validate(); err != nil {
		t.Errorf("credentials without a sheet: %v", err)
	}
	unreadable := serviceKey(t, goodKey)
	os.Chmod(unreadable, 0)
	for _, tc := range []struct {
		env  env
		want string
	}{
		{env{"MUNSHI_SHEETS_ID": id}, "MUNSHI_SHEETS_ID is set but GOOGLE_APPLICATION_CREDENTIALS is not"},
		{env{"MUNSHI_SHEETS_ID": id, "GOOGLE_APPLICATION_CREDENTIALS": "/nowhere/key.json"}, `GOOGLE_APPLICATION_CREDENTIALS "/nowhere/key.json" does not exist`},
		{env{"MUNSHI_SHEETS_ID": id, "GOOGLE_APPLICATION_CREDENTIALS": serviceKey(t, "not json")}, "is not a JSON key file"},
		{env{"MUNSHI_SHEETS_ID": id, "GOOGLE_APPLICATION_CREDENTIALS": serviceKey(t, `{"type":"authorized_user","client_id":"x"}`)}, "is not a service account's key"},
		{env{"MUNSHI_SHEETS_ID": "not an id!", "SHEETS_API_URL": "http://127.0.0.1:1"}, "is not a spreadsheet id"},
		{env{"MUNSHI_SHEETS_ID": id, "SHEETS_API_URL": "ftp://x"}, `SHEETS_API_URL "ftp://x" must be an http(s) URL`},
		{env{"MUNSHI_SHEETS_SYNC": "10m"}, "MUNSHI_SHEETS_SYNC is set but MUNSHI_SHEETS_ID is not"},
		{env{"MUNSHI_SHEETS_ID": id, "SHEETS_API_URL": "http://127.0.0.1:1", "MUNSHI_SHEETS_SYNC": "10s"}, `MUNSHI_SHEETS_SYNC "10s" must be a duration`},
		{env{"MUNSHI_SHEETS_ID": id, "SHEETS_API_URL": "http://127.0.0.1:1", "MUNSHI_SHEETS_SYNC": "often"}, `MUNSHI_SHEETS_SYNC "often" must be a duration`},
	} {
		got := problems(config.FromEnv(full.with(tc.env).get).Validate())
		if len(got) != 1 || !strings.Contains(got[0], tc.want) {
			t.Errorf("%v: Validate() = %q; want one problem with %q", tc.env, got, tc.want)
		}
	}
	if os.Geteuid() != 0 { // root reads any file
		got := problems(config.FromEnv(full.with(env{"MUNSHI_SHEETS_ID": id, "GOOGLE_APPLICATION_CREDENTIALS": unreadable}).get).Validate())
		if len(got) != 1 || !strings.Contains(got[0], "cannot be read") {
			t.Errorf("unreadable key: %q", got)
		}
	}
	u := config.Usage()
	for _, name := range []string{"MUNSHI_SHEETS_ID", "GOOGLE_APPLICATION_CREDENTIALS", "SHEETS_API_URL", "MUNSHI_SHEETS_SYNC"} {
		if !strings.Contains(u, name) {
			t.Errorf("serve --help does not list %s", name)
		}
	}
}
