// Package sheetstest runs a fake Google Sheets API v4 for tests (httptest
// on 127.0.0.1): one spreadsheet whose tabs hold cells, answering the real
// JSON of spreadsheets.get, spreadsheets.batchUpdate (addSheet),
// values.get, values.append and values.batchUpdate, with Google's error
// bodies. Faults can be injected: a status (500, 429 with Retry-After,
// 403), or a request applied whose answer never reaches the client (the
// connection is dropped), which is how a retried append could duplicate
// rows. Every request is recorded.
//
// It must not be imported by non-test code.
package sheetstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The operations of the API the server speaks, as Request.Op names them.
const (
	OpGet               = "spreadsheets.get"
	OpBatchUpdate       = "spreadsheets.batchUpdate"
	OpValuesGet         = "values.get"
	OpValuesAppend      = "values.append"
	OpValuesBatchUpdate = "values.batchUpdate"
)

// Request is one request the server received.
type Request struct {
	Op, Method, Path string
	Query            url.Values
	Body             string
	Status           int  // what the server answered; 0 when the answer was lost
	Lost             bool // applied, and the connection dropped before the answer
	Authorization    string
}

// Fault is a failure injected into the next requests of an operation.
type Fault struct {
	Op         string // one of the Op constants; "" for every operation
	Status     int    // the status to answer with, Google's error body with it
	RetryAfter string // the Retry-After header of a 429
	// Lost applies the request as if it succeeded, then drops the
	// connection without answering.
	Lost bool
	// Times is how many matching requests it hits; 0 until Clear.
	Times int
}

// Server is a running fake with one spreadsheet.
type Server struct {
	URL           string // the API base, for SHEETS_API_URL
	SpreadsheetID string

	mu       sync.Mutex
	tabs     []*tab
	nextID   int64
	faults   []*Fault
	requests []Request
}

type tab struct {
	id    int64
	title string
	cells [][]any // rows of strings, json.Numbers and bools; trailing empties trimmed on read
}

// Start runs a fake holding spreadsheet id with one empty tab, "Sheet1",
// as a new Google Sheet has; it stops when the test ends.
func Start(t testing.TB, id string) *Server {
	t.Helper()
	s := &Server{SpreadsheetID: id, nextID: 1}
	s.tabs = []*tab{{id: 0, title: "Sheet1"}}
	ts := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(ts.Close)
	s.URL = ts.URL
	return s
}

// Inject adds a fault; faults are tried in the order added.
func (s *Server) Inject(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &f)
}

// Clear removes every fault: the server answers again.
func (s *Server) Clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// Requests returns every request so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Count is how many requests of op (every op when "") were received.
func (s *Server) Count(op string) int {
	n := 0
	for _, r := range s.Requests() {
		if op == "" || r.Op == op {
			n++
		}
	}
	return n
}

// SetTab replaces (or creates) the tab's cells, rows of strings as a
// person would type them.
func (s *Server) SetTab(title string, rows [][]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tb := s.find(title)
	if tb == nil {
		tb = &tab{id: s.nextID, title: title}
		s.nextID++
		s.tabs = append(s.tabs, tb)
	}
	tb.cells = nil
	for _, r := range rows {
		row := make([]any, len(r))
		for i, c := range r {
			row[i] = c
		}
		tb.cells = append(tb.cells, row)
	}
}

// DeleteTab removes a tab, as a person can.
func (s *Server) DeleteTab(title string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tabs = slices.DeleteFunc(s.tabs, func(tb *tab) bool { return tb.title == title })
}

// Rows returns the tab's cells as Sheets formats them, trailing empty
// cells and rows trimmed; nil when there is no such tab.
func (s *Server) Rows(title string) [][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	tb := s.find(title)
	if tb == nil {
		return nil
	}
	var out [][]string
	for _, r := range tb.cells {
		row := make([]string, len(r))
		for i, c := range r {
			row[i] = formatted(c)
		}
		out = append(out, row)
	}
	return trimRows(out)
}

// Tabs lists the tab titles in order.
func (s *Server) Tabs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, tb := range s.tabs {
		out = append(out, tb.title)
	}
	return out
}

func (s *Server) find(title string) *tab {
	for _, tb := range s.tabs {
		if tb.title == title {
			return tb
		}
	}
	return nil
}

// apiError is Google's error body.
func apiError(status int, message string) []byte {
	statusName := map[int]string{400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
		429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}[status]
	if message == "" {
		message = map[int]string{401: "Request had invalid authentication credentials.",
			403: "The caller does not have permission", 404: "Requested entity was not found.",
			429: "Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:000000000000'.",
			500: "Internal error encountered.", 503: "The service is currently unavailable."}[status]
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": status, "message": message, "status": statusName}})
	return b
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	op, id, rng := route(r)
	req := Request{Op: op, Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Body: string(body),
		Authorization: r.Header.Get("Authorization")}
	s.mu.Lock()
	defer s.mu.Unlock()
	record := func(status int, lost bool) {
		req.Status, req.Lost = status, lost
		s.requests = append(s.requests, req)
	}
	fault := s.fault(op)
	if fault != nil && !fault.Lost {
		if fault.RetryAfter != "" {
			w.Header().Set("Retry-After", fault.RetryAfter)
		}
		writeJSON(w, fault.Status, apiError(fault.Status, ""))
		record(fault.Status, false)
		return
	}
	var status int
	var answer []byte
	switch {
	case op == "":
		status, answer = 404, apiError(404, "Method not found.")
	case id != s.SpreadsheetID:
		status, answer = 404, apiError(404, "Requested entity was not found.")
	default:
		status, answer = s.apply(op, rng, r.URL.Query(), body)
	}
	if fault != nil && fault.Lost && status < 300 {
		record(0, true)
		drop(w)
		return
	}
	writeJSON(w, status, answer)
	record(status, false)
}

// fault is the first fault that hits a request of op, used up by it.
func (s *Server) fault(op string) *Fault {
	for i, f := range s.faults {
		if f.Op != "" && f.Op != op {
			continue
		}
		if f.Times > 0 {
			if f.Times--; f.Times == 0 {
				s.faults = slices.Delete(s.faults, i, i+1)
			}
		}
		return f
	}
	return nil
}

// drop closes the connection without an answer.
func drop(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("sheetstest: cannot drop the connection")
	}
	conn, _, err := hj.Hijack()
	if err == nil {
		conn.Close()
	}
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	w.Write(body)
}

// route reads the operation, the spreadsheet id and the range of a
// request's path: /v4/spreadsheets/{id}, /v4/spreadsheets/{id}:batchUpdate,
// /v4/spreadsheets/{id}/values/{range}, …/values/{range}:append,
// /v4/spreadsheets/{id}/values:batchUpdate.
func route(r *http.Request) (op, id, rng string) {
	path := r.URL.EscapedPath()
	rest, ok := strings.CutPrefix(path, "/v4/spreadsheets/")
	if !ok {
		return "", "", ""
	}
	unescape := func(s string) string {
		u, err := url.PathUnescape(s)
		if err != nil {
			return s
		}
		return u
	}
	idPart, values, hasValues := strings.Cut(rest, "/values")
	switch {
	case !hasValues && r.Method == http.MethodGet:
		return OpGet, unescape(idPart), ""
	case !hasValues && r.Method == http.MethodPost && strings.HasSuffix(idPart, ":batchUpdate"):
		return OpBatchUpdate, unescape(strings.TrimSuffix(idPart, ":batchUpdate")), ""
	case hasValues && values == ":batchUpdate" && r.Method == http.MethodPost:
		return OpValuesBatchUpdate, unescape(idPart), ""
	case hasValues && strings.HasPrefix(values, "/"):
		rng = strings.TrimPrefix(values, "/")
		if a, ok := strings.CutSuffix(rng, ":append"); ok && r.Method == http.MethodPost {
			return OpValuesAppend, unescape(idPart), unescape(a)
		}
		if r.Method == http.MethodGet {
			return OpValuesGet, unescape(idPart), unescape(rng)
		}
	}
	return "", "", ""
}

func (s *Server) apply(op, rng string, q url.Values, body []byte) (int, []byte) {
	switch op {
	case OpGet:
		return s.get()
	case OpBatchUpdate:
		return s.batchUpdate(body)
	case OpValuesGet:
		return s.valuesGet(rng, q)
	case OpValuesAppend:
		return s.valuesAppend(rng, q, body)
	case OpValuesBatchUpdate:
		return s.valuesBatchUpdate(body)
	}
	return 404, apiError(404, "Method not found.")
}

func (s *Server) properties(tb *tab, index int) map[string]any {
	return map[string]any{"sheetId": tb.id, "title": tb.title, "index": index, "sheetType": "GRID",
		"gridProperties": map[string]any{"rowCount": max(1000, len(tb.cells)), "columnCount": 26}}
}

func (s *Server) get() (int, []byte) {
	var sheets []any
	for i, tb := range s.tabs {
		sheets = append(sheets, map[string]any{"properties": s.properties(tb, i)})
	}
	b, _ := json.Marshal(map[string]any{"spreadsheetId": s.SpreadsheetID,
		"properties":     map[string]any{"title": "Munshi test", "locale": "en_GB", "timeZone": "Asia/Calcutta"},
		"sheets":         sheets,
		"spreadsheetUrl": "https://docs.google.com/spreadsheets/d/" + s.SpreadsheetID + "/edit"})
	return 200, b
}

func (s *Server) batchUpdate(body []byte) (int, []byte) {
	var req struct {
		Requests []map[string]json.RawMessage `json:"requests"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return 400, apiError(400, "Invalid JSON payload received. "+err.Error())
	}
	var replies []any
	for i, r := range req.Requests {
		raw, ok := r["addSheet"]
		if !ok || len(r) != 1 {
			return 400, apiError(400, fmt.Sprintf("Invalid requests[%d]: this fake only adds sheets", i))
		}
		var add struct {
			Properties struct {
				Title string `json:"title"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(raw, &add); err != nil {
			return 400, apiError(400, "Invalid JSON payload received. "+err.Error())
		}
		title := add.Properties.Title
		if title == "" {
			title = fmt.Sprintf("Sheet%d", len(s.tabs)+1)
		}
		if s.find(title) != nil {
			return 400, apiError(400, fmt.Sprintf("Invalid requests[%d].addSheet: A sheet with the name \"%s\" already exists. Please enter another name.", i, title))
		}
		tb := &tab{id: s.nextID*1000 + 7, title: title}
		s.nextID++
		s.tabs = append(s.tabs, tb)
		replies = append(replies, map[string]any{"addSheet": map[string]any{"properties": s.properties(tb, len(s.tabs)-1)}})
	}
	b, _ := json.Marshal(map[string]any{"spreadsheetId": s.SpreadsheetID, "replies": replies})
	return 200, b
}

// area is a parsed A1 range: a tab and a rectangle, 0-based, end
// exclusive; endRow -1 when open.
type area struct {
	tab            *tab
	title          string
	row, col       int
	endRow, endCol int
}

func (s *Server) parse(rng string) (area, error) {
	a, err := parseA1(rng)
	if err != nil {
		return a, err
	}
	a.tab = s.find(a.title)
	if a.tab == nil {
		return a, fmt.Errorf("Unable to parse range: %s", rng)
	}
	return a, nil
}

// parseA1 reads 'Tab'!A1:C, Tab!A2:U2, Tab!A:C, Tab!A1, Tab.
func parseA1(rng string) (area, error) {
	bad := fmt.Errorf("Unable to parse range: %s", rng)
	a := area{endRow: -1, endCol: 26}
	var cells string
	if strings.HasPrefix(rng, "'") {
		var b strings.Builder
		i := 1
		for ; i < len(rng); i++ {
			if rng[i] == '\'' {
				if i+1 < len(rng) && rng[i+1] == '\'' {
					b.WriteByte('\'')
					i++
					continue
				}
				break
			}
			b.WriteByte(rng[i])
		}
		if i >= len(rng) {
			return a, bad
		}
		a.title = b.String()
		rest := rng[i+1:]
		if rest != "" {
			var ok bool
			if cells, ok = strings.CutPrefix(rest, "!"); !ok {
				return a, bad
			}
		}
	} else {
		a.title, cells, _ = strings.Cut(rng, "!")
	}
	if cells == "" {
		return a, nil
	}
	from, to, hasTo := strings.Cut(cells, ":")
	c, r, ok := cell(from)
	if !ok || c < 0 {
		return a, bad
	}
	a.col = c
	if r >= 0 {
		a.row = r
	}
	if !hasTo {
		a.endCol = c + 1
		if r >= 0 {
			a.endRow = r + 1
		}
		return a, nil
	}
	c2, r2, ok := cell(to)
	if !ok || c2 < 0 || c2 < c {
		return a, bad
	}
	a.endCol = c2 + 1
	if r2 >= 0 {
		a.endRow = r2 + 1
	}
	return a, nil
}

// cell reads "C12" as column 2, row 11 (0-based); a part left out is -1.
func cell(s string) (col, row int, ok bool) {
	i := 0
	col = -1
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
		if col < 0 {
			col = 0
		}
		col = col*26 + int(s[i]-'A'+1)
		i++
	}
	if col > 0 {
		col--
	}
	row = -1
	if i < len(s) {
		n, err := strconv.Atoi(s[i:])
		if err != nil || n < 1 {
			return 0, 0, false
		}
		row = n - 1
	}
	return col, row, col >= 0 || row >= 0
}

func colName(c int) string {
	name := ""
	for c++; c > 0; c = (c - 1) / 26 {
		name = string(rune('A'+(c-1)%26)) + name
	}
	return name
}

func quoted(title string) string {
	return "'" + strings.ReplaceAll(title, "'", "''") + "'"
}

func (a area) String() string {
	end := ""
	if a.endRow >= 0 {
		end = strconv.Itoa(a.endRow)
	}
	return fmt.Sprintf("%s!%s%d:%s%s", quoted(a.title), colName(a.col), a.row+1, colName(a.endCol-1), end)
}

func (s *Server) valuesGet(rng string, q url.Values) (int, []byte) {
	a, err := s.parse(rng)
	if err != nil {
		return 400, apiError(400, err.Error())
	}
	unformatted := q.Get("valueRenderOption") == "UNFORMATTED_VALUE"
	var values [][]any
	for r := a.row; r < len(a.tab.cells) && (a.endRow < 0 || r < a.endRow); r++ {
		var row []any
		for c := a.col; c < a.endCol && c < len(a.tab.cells[r]); c++ {
			v := a.tab.cells[r][c]
			if !unformatted {
				v = formatted(v)
			}
			row = append(row, v)
		}
		for len(row) > 0 && formatted(row[len(row)-1]) == "" {
			row = row[:len(row)-1]
		}
		values = append(values, row)
	}
	for len(values) > 0 && len(values[len(values)-1]) == 0 {
		values = values[:len(values)-1]
	}
	out := map[string]any{"range": a.String(), "majorDimension": "ROWS"}
	if len(values) > 0 {
		for i := range values {
			if values[i] == nil {
				values[i] = []any{}
			}
		}
		out["values"] = values
	}
	b, _ := json.Marshal(out)
	return 200, b
}

// decodeValues reads a ValueRange's values keeping numbers as written.
func decodeValues(raw json.RawMessage) ([][]any, error) {
	var v [][]any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// checkInput refuses a write without a value input option, as Google does.
func checkInput(option string) (int, []byte, bool) {
	switch option {
	case "RAW", "USER_ENTERED":
		return 0, nil, true
	}
	return 400, apiError(400, "Invalid valueInputOption: INPUT_VALUE_OPTION_UNSPECIFIED"), false
}

// lastRow is the number of rows up to the last with a value.
func (tb *tab) lastRow() int {
	n := 0
	for i, r := range tb.cells {
		for _, c := range r {
			if formatted(c) != "" {
				n = i + 1
				break
			}
		}
	}
	return n
}

// write puts values into the tab from (row, col), growing it.
func (tb *tab) write(row, col int, values [][]any) {
	for i, vr := range values {
		r := row + i
		for len(tb.cells) <= r {
			tb.cells = append(tb.cells, nil)
		}
		for j, v := range vr {
			c := col + j
			for len(tb.cells[r]) <= c {
				tb.cells[r] = append(tb.cells[r], "")
			}
			if v == nil {
				continue // null leaves the cell as it is
			}
			tb.cells[r][c] = v
		}
	}
}

const maxCellChars = 50000

func tooLong(values [][]any) bool {
	for _, r := range values {
		for _, v := range r {
			if s, ok := v.(string); ok && len([]rune(s)) > maxCellChars {
				return true
			}
		}
	}
	return false
}

func (s *Server) valuesAppend(rng string, q url.Values, body []byte) (int, []byte) {
	if code, b, ok := checkInput(q.Get("valueInputOption")); !ok {
		return code, b
	}
	a, err := s.parse(rng)
	if err != nil {
		return 400, apiError(400, err.Error())
	}
	var vr struct {
		Values json.RawMessage `json:"values"`
	}
	if err := json.Unmarshal(body, &vr); err != nil {
		return 400, apiError(400, "Invalid JSON payload received. "+err.Error())
	}
	values, err := decodeValues(vr.Values)
	if err != nil {
		return 400, apiError(400, "Invalid JSON payload received. "+err.Error())
	}
	if tooLong(values) {
		return 400, apiError(400, fmt.Sprintf("Your input contains more than the maximum of %d characters in a single cell.", maxCellChars))
	}
	table := area{title: a.title, row: 0, col: a.col, endRow: a.tab.lastRow(), endCol: a.col + 21}
	start := a.tab.lastRow()
	a.tab.write(start, a.col, values)
	width := 0
	for _, r := range values {
		width = max(width, len(r))
	}
	updated := area{title: a.title, row: start, col: a.col, endRow: start + len(values), endCol: a.col + max(width, 1)}
	b, _ := json.Marshal(map[string]any{"spreadsheetId": s.SpreadsheetID, "tableRange": table.String(),
		"updates": map[string]any{"spreadsheetId": s.SpreadsheetID, "updatedRange": updated.String(),
			"updatedRows": len(values), "updatedColumns": width, "updatedCells": len(values) * width}})
	return 200, b
}

func (s *Server) valuesBatchUpdate(body []byte) (int, []byte) {
	var req struct {
		ValueInputOption string `json:"valueInputOption"`
		Data             []struct {
			Range  string          `json:"range"`
			Values json.RawMessage `json:"values"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return 400, apiError(400, "Invalid JSON payload received. "+err.Error())
	}
	if code, b, ok := checkInput(req.ValueInputOption); !ok {
		return code, b
	}
	type write struct {
		a      area
		values [][]any
	}
	var writes []write
	for _, d := range req.Data {
		a, err := s.parse(d.Range)
		if err != nil {
			return 400, apiError(400, err.Error())
		}
		values, err := decodeValues(d.Values)
		if err != nil {
			return 400, apiError(400, "Invalid JSON payload received. "+err.Error())
		}
		if tooLong(values) {
			return 400, apiError(400, fmt.Sprintf("Your input contains more than the maximum of %d characters in a single cell.", maxCellChars))
		}
		for _, r := range values {
			if a.endCol-a.col < len(r) || (a.endRow >= 0 && a.endRow-a.row < len(values)) {
				return 400, apiError(400, fmt.Sprintf("Requested writing within range [%s], but tried writing to column [%s]", d.Range, colName(a.col+len(r)-1)))
			}
		}
		writes = append(writes, write{a, values})
	}
	// All or nothing: every range was checked before any is written.
	var responses []any
	rows, cells := 0, 0
	for _, w := range writes {
		w.a.tab.write(w.a.row, w.a.col, w.values)
		width := 0
		for _, r := range w.values {
			width = max(width, len(r))
		}
		rows += len(w.values)
		cells += len(w.values) * width
		responses = append(responses, map[string]any{"spreadsheetId": s.SpreadsheetID, "updatedRange": w.a.String(),
			"updatedRows": len(w.values), "updatedColumns": width, "updatedCells": len(w.values) * width})
	}
	b, _ := json.Marshal(map[string]any{"spreadsheetId": s.SpreadsheetID, "totalUpdatedRows": rows,
		"totalUpdatedCells": cells, "totalUpdatedSheets": 1, "responses": responses})
	return 200, b
}

// formatted is a cell as Sheets shows it.
func formatted(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
		return x.String()
	case bool:
		if x {
			return "TRUE"
		}
		return "FALSE"
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

func trimRows(rows [][]string) [][]string {
	for i, r := range rows {
		for len(r) > 0 && r[len(r)-1] == "" {
			r = r[:len(r)-1]
		}
		rows[i] = r
	}
	for len(rows) > 0 && len(rows[len(rows)-1]) == 0 {
		rows = rows[:len(rows)-1]
	}
	return rows
}
