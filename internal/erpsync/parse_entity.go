package erpsync

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/munshi/munshi/internal/domain"
)

// One entity of the mapping file: its query, tier, change column and
// fields, each field's column, transforms, values and default checked
// against what the field takes.

func (p *parser) entities(n *yaml.Node, m *Mapping) {
	names := strings.Split(entityNames(), ", ")
	p.keys(n, "entities", names, func(key string, k, v *yaml.Node) {
		e := Entity(key)
		if spec := p.entity(e, k, v); spec != nil {
			m.Entities[e] = spec
		}
	})
}

// entity reads one entity's spec; what it lacks is reported at its key.
func (p *parser) entity(e Entity, key, n *yaml.Node) *EntitySpec {
	def := entityDefs[e]
	where := "entities." + string(e)
	spec := &EntitySpec{Tier: Duration(def.tier), Fields: map[string]*FieldSpec{}}
	var queryNode, fullNode *yaml.Node
	ok := p.keys(n, where, []string{"tier", "query", "since", "full", "fields"}, func(key string, k, v *yaml.Node) {
		at := where + "." + key
		switch key {
		case "tier":
			if d, ok := p.duration(v, at, minTier); ok {
				spec.Tier = d
			}
		case "query":
			queryNode = v
			if q, ok := p.text(v, at, maxQueryBytes, true); ok {
				spec.Query = q
			}
		case "since":
			spec.Since = p.since(v, at)
		case "full":
			fullNode = v
			if b, ok := p.boolean(v, at); ok {
				spec.Full = &b
			}
		case "fields":
			p.fields(e, v, at, spec)
		}
	})
	if !ok {
		return nil
	}
	switch {
	case queryNode == nil:
		p.bad(key, where+".query", "missing: the SELECT that reads the %s", e)
	case strings.TrimSpace(spec.Query) == "":
		p.bad(queryNode, where+".query", "empty: the SELECT that reads the %s", e)
	}
	if spec.Full != nil && fullNode != nil {
		switch {
		case !def.full:
			p.bad(fullNode, where+".full", "has no meaning for %s: only products, customers, bills and open_orders are read in full", e)
		case *spec.Full && spec.Since != nil:
			p.bad(fullNode, where+".full", "an incremental query (since) does not return every row, so it can't be full")
		}
	}
	for _, f := range def.fields {
		fs := spec.Fields[f.name]
		if f.def != "" {
			if fs == nil {
				fs = &FieldSpec{}
				spec.Fields[f.name] = fs
			}
			if fs.Default == "" {
				fs.Default = f.def
			}
		}
		if fs != nil && f.kind == kindMoney && fs.Money == "" {
			fs.Money = Rupees
		}
		if f.required && (fs == nil || fs.Column == "" && fs.Default == "") && !p.notedUnder(where+".fields."+f.name) {
			p.bad(key, where+".fields."+f.name, "missing: %s needs its %s (a column, or a default)", e, f.name)
		}
	}
	return spec
}

// notedUnder reports whether a problem was noted at where or below it.
func (p *parser) notedUnder(where string) bool {
	for w := range p.noted {
		if w == where || strings.HasPrefix(w, where+".") {
			return true
		}
	}
	return false
}

func (p *parser) since(n *yaml.Node, where string) *SinceSpec {
	s := &SinceSpec{}
	var col *yaml.Node
	if !p.keys(n, where, []string{"column", "overlap"}, func(key string, k, v *yaml.Node) {
		switch key {
		case "column":
			col = v
			if c, ok := p.text(v, where+".column", maxNameBytes, false); ok {
				s.Column = strings.TrimSpace(c)
			}
		case "overlap":
			if d, ok := p.duration(v, where+".overlap", 0); ok {
				s.Overlap = d
			}
		}
	}) {
		return nil
	}
	if col == nil || s.Column == "" {
		p.bad(n, where+".column", "missing: the column that says when a row last changed")
	}
	return s
}

func (p *parser) fields(e Entity, n *yaml.Node, where string, spec *EntitySpec) {
	def := entityDefs[e]
	p.keys(n, where, def.names(), func(key string, k, v *yaml.Node) {
		f, _ := def.field(key)
		if fs := p.field(e, f, v, where+"."+key); fs != nil {
			spec.Fields[key] = fs
		}
	})
}

// field reads one field's spec; a bare value is its column.
func (p *parser) field(e Entity, f fieldDef, n *yaml.Node, where string) *FieldSpec {
	fs := &FieldSpec{}
	if n.Kind == yaml.ScalarNode && p.plain(n, where) {
		c, ok := p.text(n, where, maxNameBytes, false)
		if !ok {
			return nil
		}
		fs.Column = strings.TrimSpace(c)
		if fs.Column == "" {
			p.bad(n, where, "needs a column or a default")
			return nil
		}
		return fs
	}
	var defaultNode *yaml.Node
	ok := p.keys(n, where, []string{"column", "transform", "money", "factor", "default", "values", "review", "suggested"}, func(key string, k, v *yaml.Node) {
		at := where + "." + key
		switch key {
		case "column":
			if c, ok := p.text(v, at, maxNameBytes, false); ok {
				fs.Column = strings.TrimSpace(c)
			}
		case "transform":
			fs.Transform = p.transforms(v, at)
		case "money":
			if s, ok := p.scalar(v, at); ok {
				switch {
				case f.kind != kindMoney:
					p.bad(k, at, "only for an amount of money; %s is %s", f.name, article(f.kind))
				case s != Rupees && s != Paise:
					p.bad(v, at, "%q is not rupees or paise", s)
				default:
					fs.Money = s
				}
			}
		case "factor":
			if f.kind != kindQty {
				p.bad(k, at, "only for a quantity; %s is %s", f.name, article(f.kind))
				return
			}
			s, ok := p.scalar(v, at)
			if !ok {
				return
			}
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || (v.Tag != "!!int" && v.Tag != "!!float") || math.IsInf(x, 0) || math.IsNaN(x) {
				p.bad(v, at, "%q is not a number", s)
				return
			}
			if x <= 0 || x > 1e6 {
				p.bad(v, at, "%s must be more than 0 (and at most a million): it multiplies to base units", s)
				return
			}
			fs.Factor = x
		case "default":
			defaultNode = v
			if s, ok := p.text(v, at, maxTextBytes, false); ok {
				fs.Default = s
			}
		case "values":
			fs.Values = p.values(f, k, v, at)
		case "review":
			if s, ok := p.text(v, at, maxTextBytes, true); ok {
				fs.Review = s
			}
		case "suggested":
			if b, ok := p.boolean(v, at); ok {
				fs.Suggested = b
			}
		}
	})
	if !ok {
		return nil
	}
	if fs.Default != "" {
		if why := checkDefault(f, fs); why != "" {
			p.bad(defaultNode, where+".default", "%s", why)
		}
	}
	if fs.Column == "" && fs.Default == "" && f.def == "" {
		p.bad(n, where, "needs a column or a default")
		return nil
	}
	return fs
}

func article(k kind) string {
	switch k {
	case kindMoney:
		return "an amount"
	case kindQty:
		return "a quantity"
	}
	return "a " + k.String()
}

func (p *parser) transforms(n *yaml.Node, where string) []string {
	var items []*yaml.Node
	switch n.Kind {
	case yaml.ScalarNode:
		items = []*yaml.Node{n}
	case yaml.SequenceNode:
		items = n.Content
	default:
		p.bad(n, where, "want a list such as [trim, upper]")
		return nil
	}
	var out []string
	for _, it := range items {
		if !p.plain(it, where) {
			continue
		}
		s, ok := p.scalar(it, where)
		if !ok {
			continue
		}
		if !slices.Contains(transforms, s) {
			p.bad(it, where, "unknown transform %q (known: %s)", s, strings.Join(transforms, ", "))
			continue
		}
		out = append(out, s)
	}
	return out
}

func (p *parser) values(f fieldDef, k, n *yaml.Node, where string) map[string]string {
	if f.kind.numeric() || f.kind == kindDate {
		p.bad(k, where, "only for text; %s is %s", f.name, article(f.kind))
		return nil
	}
	out := map[string]string{}
	p.keys(n, where, nil, func(key string, kn, vn *yaml.Node) {
		if len(out) >= maxValues {
			p.bad(kn, where, "more than %d values", maxValues)
			return
		}
		if len(key) > maxTextBytes {
			p.bad(kn, where, "a value longer than %d bytes", maxTextBytes)
			return
		}
		to, ok := p.text(vn, where+"."+key, maxTextBytes, false)
		if !ok {
			return
		}
		if why := checkValue(f, to); why != "" {
			p.bad(vn, where+"."+key, "%s", why)
			return
		}
		out[key] = to
	})
	return out
}

// checkValue says why to is not a value the field can take, or "".
func checkValue(f fieldDef, to string) string {
	switch f.kind {
	case kindMode, kindModes:
		for _, m := range splitModes(to) {
			if _, err := domain.ParsePaymentMode(m); err != nil {
				return fmt.Sprintf("%q is not a payment mode (cod, credit, upi, cheque or bank_transfer)", to)
			}
		}
	case kindStatus:
		if _, err := parseStatus(to); err != nil {
			return err.Error()
		}
	}
	return ""
}

// checkDefault says why the field's default can't be read as the field, or "".
func checkDefault(f fieldDef, fs *FieldSpec) string {
	var err error
	switch f.kind {
	case kindMoney:
		_, err = readMoney(fs.Default, fs.Money)
	case kindQty:
		_, err = readQty(fs.Default, fs.Factor)
	case kindPercent:
		_, err = readPercent(fs.Default)
	case kindDate:
		_, err = readDate(fs.Default, time.UTC)
	case kindPhone:
		_, err = readPhone(fs.Default)
	case kindMode, kindModes, kindStatus:
		if why := checkValue(f, fs.Default); why != "" {
			return why
		}
	}
	if err != nil {
		return fmt.Sprintf("%q: %v", fs.Default, err)
	}
	return ""
}
