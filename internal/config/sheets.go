package config

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"
)

// Sheets is the Google Sheets part of the configuration.
type Sheets struct {
	// SheetsID is the spreadsheet's id (MUNSHI_SHEETS_ID; the sheet's
	// whole URL is taken too). Empty: no Sheet.
	SheetsID    string
	sheetsIDRaw string
	// GoogleCredentials is the service account's JSON key file.
	GoogleCredentials string
	// SheetsAPIURL replaces Google's API base (a fake); no credentials
	// are needed then.
	SheetsAPIURL string
	// SheetsSync is how often a running server pulls the Catalog and
	// Customers tabs; 0: never.
	SheetsSync    time.Duration
	sheetsSyncRaw string
}

// The shortest and longest MUNSHI_SHEETS_SYNC: each pull costs two of the
// sixty reads a minute Google allows, and a day is the longest a price
// change should wait.
const (
	MinSheetsSync = time.Minute
	MaxSheetsSync = 24 * time.Hour
)

var sheetsVars = []Var{
	{Name: "MUNSHI_SHEETS_ID", Help: "the Google Sheet orders are logged to (its id, or its URL); catalog and customers may be read from its tabs", set: func(c *Config, v string) {
		c.sheetsIDRaw = v
		c.SheetsID = sheetID(v)
	}},
	{Name: "GOOGLE_APPLICATION_CREDENTIALS", Help: "the JSON key file of the Google service account the sheet is shared with", set: func(c *Config, v string) { c.GoogleCredentials = v }},
	{Name: "SHEETS_API_URL", Help: "override of the Google Sheets API base URL (for fakes; no Google credentials then)", set: func(c *Config, v string) { c.SheetsAPIURL = strings.TrimRight(v, "/") }},
	{Name: "MUNSHI_SHEETS_SYNC", Help: "how often the server pulls the Catalog and Customers tabs of the sheet, such as 10m (default: never)", set: func(c *Config, v string) {
		c.sheetsSyncRaw = v
		c.SheetsSync, _ = time.ParseDuration(v)
	}},
}

var (
	sheetURL     = regexp.MustCompile(`^https://docs\.google\.com/spreadsheets/d/([A-Za-z0-9_-]+)`)
	sheetIDShape = regexp.MustCompile(`^[A-Za-z0-9_-]{10,100}$`)
)

// sheetID reads a spreadsheet's id from itself or from its URL.
func sheetID(v string) string {
	if m := sheetURL.FindStringSubmatch(v); m != nil {
		return m[1]
	}
	return v
}

func (c Config) validateSheets() []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("config: "+format, args...)) }
	if c.SheetsID != "" && !sheetIDShape.MatchString(c.SheetsID) {
		bad("MUNSHI_SHEETS_ID %q is not a spreadsheet id: copy the part of the sheet's URL between /d/ and /edit", c.sheetsIDRaw)
	}
	if c.SheetsAPIURL != "" && !isHTTPURL(c.SheetsAPIURL) {
		bad("SHEETS_API_URL %q must be an http(s) URL", c.SheetsAPIURL)
	}
	if c.sheetsSyncRaw != "" {
		if c.SheetsSync < MinSheetsSync || c.SheetsSync > MaxSheetsSync {
			bad("MUNSHI_SHEETS_SYNC %q must be a duration from %s to %s, such as 10m", c.sheetsSyncRaw, MinSheetsSync, "24h")
		} else if c.SheetsID == "" {
			bad("MUNSHI_SHEETS_SYNC is set but MUNSHI_SHEETS_ID is not: there is no sheet to pull")
		}
	}
	if c.SheetsID == "" || c.SheetsAPIURL != "" {
		return errs
	}
	if c.GoogleCredentials == "" {
		bad("MUNSHI_SHEETS_ID is set but GOOGLE_APPLICATION_CREDENTIALS is not: Munshi reaches the sheet as a Google service account, whose JSON key file it names")
	} else if why := serviceAccountProblem(c.GoogleCredentials); why != "" {
		bad("GOOGLE_APPLICATION_CREDENTIALS %q %s", c.GoogleCredentials, why)
	}
	return errs
}

// serviceAccountProblem says why the file is not a service account's
// JSON key Munshi can use, or returns "".
func serviceAccountProblem(path string) string {
	data, err := os.ReadFile(path)
	switch {
	case os.IsNotExist(err):
		return "does not exist"
	case err != nil:
		return "cannot be read (check its permissions)"
	}
	var key struct {
		Type        string `json:"type"`
		ClientEmail string `json:"client_email"`
		PrivateKey  string `json:"private_key"`
	}
	if err := json.Unmarshal(data, &key); err != nil {
		return "is not a JSON key file (download the service account's key as JSON)"
	}
	if key.Type != "service_account" || key.ClientEmail == "" || key.PrivateKey == "" {
		return "is not a service account's key (it needs type service_account, client_email and private_key)"
	}
	return ""
}
