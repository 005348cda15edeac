package legacyerp_test

import (
	"bytes"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/munshi/munshi/internal/erp/legacyerp"
	"github.com/munshi/munshi/internal/erpsync"
)

func mapping(t *testing.T, dialect string) *erpsync.Mapping {
	t.Helper()
	b, err := legacyerp.Mapping(dialect)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var m erpsync.Mapping
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("mapping_%s.yaml: %v", dialect, err)
	}
	return &m
}

// required are the fields each mapped entity must name a column for.
var required = map[erpsync.Entity][]string{
	erpsync.Products:  {"sku", "name", "price", "unit", "gst_percent", "stock_ready", "stock_wip"},
	erpsync.Customers: {"id", "name", "phone", "segment", "credit_limit", "payment_modes"},
	erpsync.Dues:      {"customer_id", "outstanding"},
	erpsync.Bills:     {"bill_no", "customer_id", "date", "amount", "balance"},
	erpsync.Sales:     {"order_id", "date", "customer_id", "sku", "qty", "price", "gst_percent", "status"},
	erpsync.Payments:  {"date", "customer_id", "amount", "mode", "reference"},
	erpsync.Receipts:  {"reference", "sku", "qty", "date"},
}

func TestMappingParses(t *testing.T) {
	for _, dialect := range legacyerp.Dialects {
		t.Run(dialect, func(t *testing.T) {
			m := mapping(t, dialect)
			if m.Source.DSN != "${ERP_DSN}" || m.Source.Timezone != "Asia/Kolkata" {
				t.Errorf("source = %+v", m.Source)
			}
			if len(m.Entities) != len(required) {
				t.Errorf("%d entities, want %d", len(m.Entities), len(required))
			}
			for e, fields := range required {
				spec := m.Entities[e]
				if spec == nil {
					t.Errorf("no %s", e)
					continue
				}
				for _, f := range fields {
					if fs := spec.Fields[f]; fs == nil || fs.Column == "" {
						t.Errorf("%s.%s has no column", e, f)
					}
				}
			}
			// Sales change (ModifiedOn); receipts are only ever added
			// (EntryOn). The rest is read whole.
			param := map[string]string{legacyerp.Postgres: "$1", legacyerp.SQLite: ":since", legacyerp.MySQL: "?"}[dialect]
			incremental := map[erpsync.Entity]string{erpsync.Sales: "ModifiedOn", erpsync.Payments: "EntryOn"}
			for e, spec := range m.Entities {
				col, ok := incremental[e]
				switch {
				case ok && (spec.Since == nil || spec.Since.Column != col || !strings.Contains(spec.Query, param)):
					t.Errorf("%s is not incremental on %s with %s: %+v", e, col, param, spec.Since)
				case !ok && spec.Since != nil:
					t.Errorf("%s is incremental", e)
				}
				if !strings.Contains(spec.Query, "3") {
					t.Errorf("%s does not filter on company 3", e)
				}
			}
		})
	}
	if _, err := legacyerp.Mapping("oracle"); err == nil {
		t.Error("a mapping for oracle")
	}
}

// result is a query's rows by lower-cased column name.
type result []map[string]any

func runQuery(t *testing.T, db *sql.DB, dialect string, spec *erpsync.EntitySpec, since string) result {
	t.Helper()
	var args []any
	if spec.Since != nil {
		switch dialect {
		case legacyerp.SQLite:
			args = append(args, sql.Named("since", since))
		default:
			args = append(args, since)
		}
	}
	rows, err := db.Query(spec.Query, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, spec.Query)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out result
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		r := map[string]any{}
		for i, c := range cols {
			r[strings.ToLower(c)] = vals[i]
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for name, fs := range spec.Fields {
		if fs.Column == "" {
			continue
		}
		if len(out) > 0 {
			if _, ok := out[0][strings.ToLower(fs.Column)]; !ok {
				t.Errorf("field %s: the query returns no column %s (it returns %v)", name, fs.Column, cols)
			}
		}
	}
	return out
}

// read is a field's value as the mapping's transforms and values leave it.
func read(r map[string]any, fs *erpsync.FieldSpec) string {
	s := str(r[strings.ToLower(fs.Column)])
	for _, tr := range fs.Transform {
		switch tr {
		case "trim":
			s = strings.TrimSpace(s)
		case "upper":
			s = strings.ToUpper(s)
		case "lower":
			s = strings.ToLower(s)
		case "collapse":
			s = strings.Join(strings.Fields(s), " ")
		}
	}
	return s
}

func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case []byte:
		return string(x)
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case time.Time:
		return x.Format(time.DateTime)
	}
	return fmt.Sprint(v)
}

// paise reads money in rupees exactly: decimal text, or a float as SQLite
// keeps NUMERIC.
func paise(t testing.TB, v any) int64 {
	t.Helper()
	switch x := v.(type) {
	case int64:
		return x * 100
	case float64:
		return int64(math.Round(x * 100))
	}
	s := str(v)
	neg := strings.HasPrefix(s, "-")
	whole, frac, _ := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	frac = (frac + "00")[:2]
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil {
		t.Fatalf("%q is not money", s)
	}
	if neg {
		n = -n
	}
	return n
}

// whole reads a quantity that must be a whole number.
func whole(t testing.TB, v any) int64 {
	t.Helper()
	p := paise(t, v)
	if p%100 != 0 {
		t.Errorf("quantity %v is not whole", v)
	}
	return p / 100
}

const longAgo = "2000-01-01 00:00:00"

// mappingReads runs the reviewed mapping's queries on the ERP and checks
// that they read what the fixture holds and what Truth says.
func mappingReads(t *testing.T, db *sql.DB, dialect string, f legacyerp.Facts) {
	t.Helper()
	m := mapping(t, dialect)
	ctx := t.Context()
	inValues := func(e erpsync.Entity, field string, rows result) {
		t.Helper()
		fs := m.Entities[e].Fields[field]
		for _, r := range rows {
			if v := read(r, fs); v != "" {
				if _, ok := fs.Values[v]; !ok {
					t.Errorf("%s.%s: %q (from %q) is not among the values", e, field, v, str(r[strings.ToLower(fs.Column)]))
					return
				}
			}
		}
	}

	products := runQuery(t, db, dialect, m.Entities[erpsync.Products], "")
	fields := m.Entities[erpsync.Products].Fields
	var skus []string
	for _, r := range products {
		skus = append(skus, read(r, fields["sku"]))
	}
	if !slices.Equal(skus, f.SKUs) {
		t.Errorf("products read %d SKUs, want %d", len(skus), len(f.SKUs))
	}
	inValues(erpsync.Products, "unit", products)
	for _, r := range products[:min(len(products), 40)] {
		sku := read(r, fields["sku"])
		want, err := legacyerp.ReadyStock(ctx, db, dialect, sku)
		if err != nil {
			t.Fatal(err)
		}
		if got := whole(t, r["ready"]); got != want {
			t.Errorf("%s: the mapping reads ready stock %d, Truth says %d", sku, got, want)
		}
		if paise(t, r["rt"]) <= 0 {
			t.Errorf("%s: price %v", sku, r["rt"])
		}
	}

	customers := runQuery(t, db, dialect, m.Entities[erpsync.Customers], "")
	if len(customers) != f.Customers {
		t.Errorf("customers read %d, want %d", len(customers), f.Customers)
	}
	inValues(erpsync.Customers, "segment", customers)
	inValues(erpsync.Customers, "payment_modes", customers)

	total, err := legacyerp.TotalDues(ctx, db, dialect)
	if err != nil {
		t.Fatal(err)
	}
	var dues, balances int64
	for _, r := range runQuery(t, db, dialect, m.Entities[erpsync.Dues], "") {
		dues += paise(t, r["clbal"])
	}
	bills := runQuery(t, db, dialect, m.Entities[erpsync.Bills], "")
	for _, r := range bills {
		balances += paise(t, r["balamt"])
	}
	if dues != total || balances != total || total <= 0 {
		t.Errorf("dues read %d, bills' balances %d, Truth's total %d", dues, balances, total)
	}
	if len(bills) != f.UnpaidBills {
		t.Errorf("bills read %d, want %d", len(bills), f.UnpaidBills)
	}

	sales := runQuery(t, db, dialect, m.Entities[erpsync.Sales], longAgo)
	if len(sales) != f.SalesLines {
		t.Errorf("sales read %d lines, want %d", len(sales), f.SalesLines)
	}
	inValues(erpsync.Sales, "status", sales)
	recent := runQuery(t, db, dialect, m.Entities[erpsync.Sales], f.LastModified.Add(-time.Hour).Format(time.DateTime))
	if len(recent) == 0 || len(recent) >= len(sales) {
		t.Errorf("sales changed in the last hour: %d lines of %d", len(recent), len(sales))
	}

	payments := runQuery(t, db, dialect, m.Entities[erpsync.Payments], "1900-01-01 00:00:00")
	if len(payments) != f.Payments {
		t.Errorf("payments read %d, want %d", len(payments), f.Payments)
	}
	inValues(erpsync.Payments, "mode", payments)

	if got := runQuery(t, db, dialect, m.Entities[erpsync.Receipts], ""); len(got) != f.GoodsIn {
		t.Errorf("receipts read %d, want %d", len(got), f.GoodsIn)
	}
}
