package sheets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
	api "google.golang.org/api/sheets/v4"
)

// Config says which spreadsheet Munshi works with and how to reach it.
type Config struct {
	SpreadsheetID string
	// CredentialsFile is the service account's JSON key file; it is not
	// read when APIURL is set.
	CredentialsFile string
	// APIURL replaces Google's API base (a fake in tests): requests go
	// there without credentials.
	APIURL string
	// RequestsPerMinute bounds the requests Munshi makes (Google allows
	// 60 reads and 60 writes a minute to one user); default 50.
	RequestsPerMinute int
	// HTTPClient carries the requests to APIURL; default one with a 30 s
	// timeout.
	HTTPClient *http.Client
}

// Client is the spreadsheet, through the Sheets API v4. Every request
// waits its turn under the rate limit, and every failure is an *Error.
type Client struct {
	api     *api.Service
	id      string
	account string // the service account's e-mail, for the reason of a 403
	limit   *rate.Limiter

	mu    sync.Mutex
	calm  time.Time // no request before this: the API asked to wait (429)
	tabs  map[string]bool
	clock func() time.Time
}

// credentials is what Munshi reads of a service account's key file.
type credentials struct {
	Type        string `json:"type"`
	ClientEmail string `json:"client_email"`
	PrivateKey  string `json:"private_key"`
}

// ReadCredentials reads a service account's JSON key file and returns it
// with the account's e-mail address, or one error saying what is wrong
// with it.
func ReadCredentials(path string) ([]byte, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("sheets: the service account key %s cannot be read: %w", path, err)
	}
	var c credentials
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, "", fmt.Errorf("sheets: the service account key %s is not a JSON key file", path)
	}
	if c.Type != "service_account" || c.ClientEmail == "" || c.PrivateKey == "" {
		return nil, "", fmt.Errorf("sheets: %s is not a service account's JSON key (it needs type service_account, client_email and private_key)", path)
	}
	return data, c.ClientEmail, nil
}

// New connects to the spreadsheet. It makes no request.
func New(ctx context.Context, c Config) (*Client, error) {
	if c.SpreadsheetID == "" {
		return nil, errors.New("sheets: no spreadsheet id")
	}
	rpm := c.RequestsPerMinute
	if rpm <= 0 {
		rpm = 50
	}
	cl := &Client{id: c.SpreadsheetID, tabs: map[string]bool{}, clock: time.Now,
		limit: rate.NewLimiter(rate.Limit(float64(rpm)/60), min(rpm, 10))}
	var opts []option.ClientOption
	if c.APIURL != "" {
		hc := c.HTTPClient
		if hc == nil {
			hc = &http.Client{Timeout: 30 * time.Second}
		}
		opts = append(opts, option.WithHTTPClient(hc), option.WithEndpoint(strings.TrimRight(c.APIURL, "/")+"/"))
	} else {
		data, account, err := ReadCredentials(c.CredentialsFile)
		if err != nil {
			return nil, err
		}
		cl.account = account
		opts = append(opts, option.WithAuthCredentialsJSON(option.ServiceAccount, data), option.WithScopes(api.SpreadsheetsScope))
	}
	svc, err := api.NewService(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("sheets: %w", err)
	}
	cl.api = svc
	return cl, nil
}

// Account is the service account's e-mail address ("" against a fake).
func (c *Client) Account() string { return c.account }

// wait lets one request go under the rate limit, and not while the API
// has asked to be left alone.
func (c *Client) wait(ctx context.Context) error {
	c.mu.Lock()
	calm := c.calm
	c.mu.Unlock()
	if left := calm.Sub(c.clock()); left > 0 {
		return &Error{Op: "wait", Status: http.StatusTooManyRequests, Message: "waiting as Google asked", retryAfter: left}
	}
	if err := c.limit.Wait(ctx); err != nil {
		return &Error{Op: "wait", Message: "no turn under the rate limit in time", err: err}
	}
	return nil
}

// fail turns a failed call into an *Error, noting a 429's wait and
// forgetting the tabs known when the range was not found.
func (c *Client) fail(op string, err error) error {
	e := &Error{Op: op, err: err, account: c.account}
	var ge *googleapi.Error
	if errors.As(err, &ge) {
		e.Status, e.Message = ge.Code, ge.Message
		if ge.Code == http.StatusTooManyRequests {
			e.retryAfter = retryAfter(ge.Header.Get("Retry-After"), c.clock())
			c.mu.Lock()
			if until := c.clock().Add(e.retryAfter); until.After(c.calm) {
				c.calm = until
			}
			c.mu.Unlock()
		}
		if ge.Code == http.StatusBadRequest && strings.Contains(ge.Message, "Unable to parse range") {
			c.mu.Lock()
			clear(c.tabs) // a tab was deleted or renamed: look again
			c.mu.Unlock()
		}
	} else {
		e.Message = err.Error()
	}
	return e
}

// defaultCalm is how long Munshi leaves the API alone after a 429 that
// says nothing of how long.
const defaultCalm = 30 * time.Second

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(h string, now time.Time) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return defaultCalm
	}
	if n, err := strconv.Atoi(h); err == nil && n >= 0 {
		return min(time.Duration(n)*time.Second, time.Hour)
	}
	if t, err := http.ParseTime(h); err == nil {
		return min(max(t.Sub(now), time.Second), time.Hour)
	}
	return defaultCalm
}

// A1 writes a range of a tab in A1 notation, the tab's name quoted.
func A1(tab, cells string) string {
	q := "'" + strings.ReplaceAll(tab, "'", "''") + "'"
	if cells == "" {
		return q
	}
	return q + "!" + cells
}

// EnsureTab makes sure the tab exists, adding it (its first row frozen)
// when it does not; once seen it is not looked for again until a range of
// the spreadsheet is not found.
func (c *Client) EnsureTab(ctx context.Context, title string) error {
	c.mu.Lock()
	known := c.tabs[title]
	c.mu.Unlock()
	if known {
		return nil
	}
	if err := c.wait(ctx); err != nil {
		return err
	}
	s, err := c.api.Spreadsheets.Get(c.id).Fields("sheets.properties(sheetId,title)").Context(ctx).Do()
	if err != nil {
		return c.fail("read the spreadsheet's tabs", err)
	}
	found := false
	for _, sh := range s.Sheets {
		if sh.Properties != nil && sh.Properties.Title == title {
			found = true
		}
	}
	if !found {
		if err := c.wait(ctx); err != nil {
			return err
		}
		req := &api.BatchUpdateSpreadsheetRequest{Requests: []*api.Request{{AddSheet: &api.AddSheetRequest{
			Properties: &api.SheetProperties{Title: title, GridProperties: &api.GridProperties{FrozenRowCount: 1}}}}}}
		if _, err := c.api.Spreadsheets.BatchUpdate(c.id, req).Context(ctx).Do(); err != nil {
			var ge *googleapi.Error
			// Added meanwhile (by another instance, or an answer lost).
			if !(errors.As(err, &ge) && ge.Code == http.StatusBadRequest && strings.Contains(ge.Message, "already exists")) {
				return c.fail("add the tab "+title, err)
			}
		}
	}
	c.mu.Lock()
	c.tabs[title] = true
	c.mu.Unlock()
	return nil
}

// HasTab reports whether the spreadsheet has the tab.
func (c *Client) HasTab(ctx context.Context, title string) (bool, error) {
	if err := c.wait(ctx); err != nil {
		return false, err
	}
	s, err := c.api.Spreadsheets.Get(c.id).Fields("sheets.properties(sheetId,title)").Context(ctx).Do()
	if err != nil {
		return false, c.fail("read the spreadsheet's tabs", err)
	}
	for _, sh := range s.Sheets {
		if sh.Properties != nil && sh.Properties.Title == title {
			return true, nil
		}
	}
	return false, nil
}

// Values reads a range as the sheet shows it (formatted), rows of cells
// as strings; trailing empty cells and rows are left out, as the API
// leaves them.
func (c *Client) Values(ctx context.Context, rng string) ([][]string, error) {
	return c.values(ctx, rng, "FORMATTED_VALUE")
}

// values reads a range rendered as render says: FORMATTED_VALUE as people
// see it, UNFORMATTED_VALUE as it is held (a number formatted "1.00"
// reads 1).
func (c *Client) values(ctx context.Context, rng, render string) ([][]string, error) {
	if err := c.wait(ctx); err != nil {
		return nil, err
	}
	vr, err := c.api.Spreadsheets.Values.Get(c.id, rng).ValueRenderOption(render).
		MajorDimension("ROWS").Context(ctx).Do()
	if err != nil {
		return nil, c.fail("read "+rng, err)
	}
	out := make([][]string, len(vr.Values))
	for i, row := range vr.Values {
		out[i] = make([]string, len(row))
		for j, v := range row {
			out[i][j] = cellText(v)
		}
	}
	return out, nil
}

// cellText is a cell's value as text.
func cellText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		if x {
			return "TRUE"
		}
		return "FALSE"
	}
	return fmt.Sprint(v)
}

// Range is values for one range.
type Range struct {
	A1     string
	Values [][]any
}

// Update writes values to the ranges in one request. Values are taken as
// they are (RAW): text is never read as a formula.
func (c *Client) Update(ctx context.Context, ranges []Range) error {
	if len(ranges) == 0 {
		return nil
	}
	if err := c.wait(ctx); err != nil {
		return err
	}
	req := &api.BatchUpdateValuesRequest{ValueInputOption: "RAW"}
	for _, r := range ranges {
		req.Data = append(req.Data, &api.ValueRange{Range: r.A1, MajorDimension: "ROWS", Values: r.Values})
	}
	if _, err := c.api.Spreadsheets.Values.BatchUpdate(c.id, req).Context(ctx).Do(); err != nil {
		return c.fail("update rows", err)
	}
	return nil
}

// Append adds rows after the table that starts at the tab's first cell,
// in one request, RAW as Update, and returns the range they went to.
func (c *Client) Append(ctx context.Context, tab string, rows [][]any) (string, error) {
	if len(rows) == 0 {
		return "", nil
	}
	if err := c.wait(ctx); err != nil {
		return "", err
	}
	resp, err := c.api.Spreadsheets.Values.Append(c.id, A1(tab, "A1"), &api.ValueRange{MajorDimension: "ROWS", Values: rows}).
		ValueInputOption("RAW").InsertDataOption("INSERT_ROWS").Context(ctx).Do()
	if err != nil {
		return "", c.fail("append rows to "+tab, err)
	}
	if resp.Updates != nil {
		return resp.Updates.UpdatedRange, nil
	}
	return "", nil
}

// Error is a failed request to the Sheets API. Its methods say what it
// means for the outbox: held while the spreadsheet refuses Munshi (not
// shared with the service account, credentials refused, no such
// spreadsheet), transient otherwise, with how long Google asked to wait.
type Error struct {
	Op         string // what Munshi was doing
	Status     int    // the HTTP status; 0 when no answer came
	Message    string // Google's message, or the network's
	retryAfter time.Duration
	account    string
	err        error
}

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("sheets: %s: %d %s", e.Op, e.Status, e.Message)
	}
	return fmt.Sprintf("sheets: %s: %s", e.Op, e.Message)
}

func (e *Error) Unwrap() error { return e.err }

// badRequest is a request Google refuses as bad (400) for what it says,
// not for a tab that has gone (which a new try makes again).
func (e *Error) badRequest() bool {
	return e.Status == http.StatusBadRequest && !strings.Contains(e.Message, "Unable to parse range")
}

// Held is true while the spreadsheet is not Munshi's to write: nothing is
// wrong with the rows, which wait.
func (e *Error) Held() bool {
	switch e.Status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
		return true
	}
	return false
}

// Reason says it in a few words, for the log, /readyz and the owners.
func (e *Error) Reason() string {
	who := "the service account"
	if e.account != "" {
		who = "the service account " + e.account
	}
	switch e.Status {
	case http.StatusForbidden:
		return fmt.Sprintf("the Google Sheet is not shared with %s as an editor (Google 403)", who)
	case http.StatusUnauthorized:
		return fmt.Sprintf("Google refused the key of %s (Google 401)", who)
	case http.StatusNotFound:
		return "no Google Sheet has the id in MUNSHI_SHEETS_ID (Google 404)"
	case http.StatusTooManyRequests:
		return "Google's request quota is used up for now (Google 429)"
	case 0:
		return "Google Sheets did not answer"
	}
	return fmt.Sprintf("Google Sheets failed (Google %d)", e.Status)
}

// Code is the HTTP status, for the audit log.
func (e *Error) Code() string {
	if e.Status == 0 {
		return ""
	}
	return strconv.Itoa(e.Status)
}

// RetryAfter is how long Google asked Munshi to wait (a 429).
func (e *Error) RetryAfter() time.Duration { return e.retryAfter }
