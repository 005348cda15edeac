package erpsync

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Marshal writes the mapping as a mapping file Parse reads back as it is:
// the source, settle_days, then the entities in run order, each with its
// tier, since, full, query (a literal block when it has several lines)
// and fields in the order of Munshi's fields, one line each unless it
// carries a review note. The same mapping always gives the same bytes.
func (m *Mapping) Marshal() ([]byte, error) {
	root := mapNode(false)
	src := mapNode(false)
	add(src, "dsn", str(m.Source.DSN))
	if m.Source.ConnectTimeout > 0 {
		add(src, "connect_timeout", str(shortDuration(time.Duration(m.Source.ConnectTimeout))))
	}
	if m.Source.QueryTimeout > 0 {
		add(src, "query_timeout", str(shortDuration(time.Duration(m.Source.QueryTimeout))))
	}
	if m.Source.MaxConns > 0 {
		add(src, "max_conns", num(strconv.Itoa(m.Source.MaxConns)))
	}
	if m.Source.Parallel > 0 {
		add(src, "parallel", num(strconv.Itoa(m.Source.Parallel)))
	}
	if m.Source.Timezone != "" {
		add(src, "timezone", str(m.Source.Timezone))
	}
	add(root, "source", src)
	if m.SettleDays > 0 {
		add(root, "settle_days", num(strconv.Itoa(m.SettleDays)))
	}
	ents := mapNode(false)
	for _, e := range Entities {
		spec := m.Entities[e]
		if spec == nil {
			continue
		}
		add(ents, string(e), entityNode(e, spec))
	}
	add(root, "entities", ents)

	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("erpsync: marshal: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("erpsync: marshal: %w", err)
	}
	return b.Bytes(), nil
}

func entityNode(e Entity, spec *EntitySpec) *yaml.Node {
	n := mapNode(false)
	tier := spec.TierOf(e)
	add(n, "tier", str(shortDuration(tier)))
	if spec.Since != nil {
		s := mapNode(true)
		add(s, "column", str(spec.Since.Column))
		add(s, "overlap", str(shortDuration(time.Duration(spec.Since.Overlap))))
		add(n, "since", s)
	}
	if spec.Full != nil {
		add(n, "full", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(*spec.Full)})
	}
	q := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: spec.Query}
	if strings.Contains(strings.TrimRight(spec.Query, "\n"), "\n") {
		q.Style = yaml.LiteralStyle
		if !strings.HasSuffix(q.Value, "\n") {
			q.Value += "\n"
		}
	}
	add(n, "query", q)
	fields := mapNode(false)
	names := entityDefs[e].names()
	var extra []string
	for name := range spec.Fields {
		if !slices.Contains(names, name) {
			extra = append(extra, name)
		}
	}
	slices.Sort(extra)
	for _, name := range append(names, extra...) {
		if fs := spec.Fields[name]; fs != nil {
			add(fields, name, fieldNode(fs))
		}
	}
	add(n, "fields", fields)
	return n
}

func fieldNode(fs *FieldSpec) *yaml.Node {
	n := mapNode(fs.Review == "")
	if fs.Column != "" {
		add(n, "column", str(fs.Column))
	}
	if len(fs.Transform) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, t := range fs.Transform {
			seq.Content = append(seq.Content, str(t))
		}
		add(n, "transform", seq)
	}
	if fs.Money != "" {
		add(n, "money", str(fs.Money))
	}
	if fs.Factor != 0 {
		add(n, "factor", num(strconv.FormatFloat(fs.Factor, 'f', -1, 64)))
	}
	if fs.Default != "" {
		add(n, "default", str(fs.Default))
	}
	if len(fs.Values) > 0 {
		v := mapNode(true)
		keys := make([]string, 0, len(fs.Values))
		for k := range fs.Values {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			add(v, k, str(fs.Values[k]))
		}
		add(n, "values", v)
	}
	if fs.Review != "" {
		r := str(fs.Review)
		if strings.Contains(fs.Review, "\n") {
			r.Style = yaml.LiteralStyle
		}
		add(n, "review", r)
	}
	if fs.Suggested {
		add(n, "suggested", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	}
	return n
}

func mapNode(flow bool) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if flow {
		n.Style = yaml.FlowStyle
	}
	return n
}

func add(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, str(key), v)
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func num(s string) *yaml.Node {
	tag := "!!int"
	if strings.ContainsAny(s, ".eE") {
		tag = "!!float"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: s}
}
