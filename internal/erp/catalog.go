package erp

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// Column is one column of a source table.
type Column struct {
	Name     string
	Type     string // as the engine declares it
	Nullable bool
	Key      bool // part of the primary key
}

// Table is one user table of the source.
type Table struct {
	Schema  string // "" where the engine has none (SQLite, MySQL's current database)
	Name    string
	Columns []Column
	Rows    int64
}

// QName is the table's quoted, schema-qualified name for a query.
func (s *Source) QName(t Table) string {
	if t.Schema == "" {
		return s.QuoteIdent(t.Name)
	}
	return s.QuoteIdent(t.Schema) + "." + s.QuoteIdent(t.Name)
}

// QuoteIdent quotes a name as the dialect does, doubling the quote
// character inside it, so that any name is safe in generated SQL.
func (s *Source) QuoteIdent(name string) string {
	switch s.dialect {
	case SQLServer:
		return "[" + strings.ReplaceAll(name, "]", "]]") + "]"
	case MySQL:
		return "`" + strings.ReplaceAll(name, "`", "``") + "`"
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// catalogQueries read tables and columns: schema, table, column, type,
// nullable ("YES"/"NO" or 1/0), primary key (1/0), in ordinal order.
var catalogQueries = map[Dialect]string{
	PostgreSQL: `SELECT c.table_schema, c.table_name, c.column_name, c.data_type, c.is_nullable,
		CASE WHEN k.column_name IS NULL THEN 0 ELSE 1 END
		FROM information_schema.columns c
		JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
		LEFT JOIN (SELECT ku.table_schema, ku.table_name, ku.column_name FROM information_schema.table_constraints tc
			JOIN information_schema.key_column_usage ku ON ku.constraint_name = tc.constraint_name AND ku.table_schema = tc.table_schema
			WHERE tc.constraint_type = 'PRIMARY KEY') k
			ON k.table_schema = c.table_schema AND k.table_name = c.table_name AND k.column_name = c.column_name
		WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema') AND c.table_schema NOT LIKE 'pg_toast%'
		ORDER BY c.table_schema, c.table_name, c.ordinal_position`,
	MySQL: `SELECT '', c.table_name, c.column_name, c.column_type, c.is_nullable, CASE WHEN c.column_key = 'PRI' THEN 1 ELSE 0 END
		FROM information_schema.columns c JOIN information_schema.tables t
			ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
		WHERE c.table_schema = DATABASE() ORDER BY c.table_name, c.ordinal_position`,
	SQLServer: `SELECT c.TABLE_SCHEMA, c.TABLE_NAME, c.COLUMN_NAME, c.DATA_TYPE, c.IS_NULLABLE,
		CASE WHEN k.COLUMN_NAME IS NULL THEN 0 ELSE 1 END
		FROM INFORMATION_SCHEMA.COLUMNS c
		JOIN INFORMATION_SCHEMA.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME AND t.TABLE_TYPE = 'BASE TABLE'
		LEFT JOIN (SELECT ku.TABLE_SCHEMA, ku.TABLE_NAME, ku.COLUMN_NAME FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS tc
			JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE ku ON ku.CONSTRAINT_NAME = tc.CONSTRAINT_NAME AND ku.TABLE_SCHEMA = tc.TABLE_SCHEMA
			WHERE tc.CONSTRAINT_TYPE = 'PRIMARY KEY') k
			ON k.TABLE_SCHEMA = c.TABLE_SCHEMA AND k.TABLE_NAME = c.TABLE_NAME AND k.COLUMN_NAME = c.COLUMN_NAME
		ORDER BY c.TABLE_SCHEMA, c.TABLE_NAME, c.ORDINAL_POSITION`,
	SQLite: `SELECT '', m.name, p.name, p.type, CASE WHEN p."notnull" = 1 THEN 'NO' ELSE 'YES' END, CASE WHEN p.pk > 0 THEN 1 ELSE 0 END
		FROM sqlite_master m JOIN pragma_table_info(m.name) p
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid`,
}

// Tables reads the source's user tables with their columns, keys and row
// counts, sorted by schema and name.
func (s *Source) Tables(ctx context.Context) ([]Table, error) {
	var out []Table
	err := s.Query(ctx, catalogQueries[s.dialect], nil, 0, func(_ []string, v []any) error {
		schema, table := text(v[0]), text(v[1])
		if n := len(out); n == 0 || out[n-1].Schema != schema || out[n-1].Name != table {
			out = append(out, Table{Schema: schema, Name: table})
		}
		t := &out[len(out)-1]
		t.Columns = append(t.Columns, Column{Name: text(v[2]), Type: text(v[3]),
			Nullable: strings.EqualFold(text(v[4]), "YES"), Key: text(v[5]) == "1"})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("erp: reading the catalog: %w", err)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Schema != out[j].Schema {
			return out[i].Schema < out[j].Schema
		}
		return out[i].Name < out[j].Name
	})
	for i := range out {
		err := s.Query(ctx, "SELECT COUNT(*) FROM "+s.QName(out[i]), nil, 0, func(_ []string, v []any) error {
			if n, ok := v[0].(int64); ok {
				out[i].Rows = n
			} else {
				fmt.Sscan(text(v[0]), &out[i].Rows)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("erp: counting %s: %w", out[i].Name, err)
		}
	}
	return out, nil
}

// Sample reads up to n rows of t in a stable order (by its key, else its
// first column), so that the same database samples the same way.
func (s *Source) Sample(ctx context.Context, t Table, n int) ([]string, [][]any, error) {
	if len(t.Columns) == 0 || n <= 0 {
		return nil, nil, nil
	}
	var order []string
	for _, c := range t.Columns {
		if c.Key {
			order = append(order, s.QuoteIdent(c.Name))
		}
	}
	if len(order) == 0 {
		order = []string{s.QuoteIdent(t.Columns[0].Name)}
	}
	q := "SELECT * FROM " + s.QName(t) + " ORDER BY " + strings.Join(order, ", ")
	var cols []string
	var rows [][]any
	err := s.Query(ctx, q, nil, n, func(c []string, v []any) error {
		cols = c
		rows = append(rows, v)
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("erp: sampling %s: %w", t.Name, err)
	}
	return cols, rows, nil
}

func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	}
	return fmt.Sprint(v)
}
