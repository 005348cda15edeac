package erpsync

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/munshi/munshi/internal/domain"
)

// Limits that keep a hostile or mistaken mapping file from exhausting
// memory or the ERP.
const (
	MaxMappingBytes = 1 << 20
	maxQueryBytes   = 64 << 10
	maxNameBytes    = 128  // a column's name
	maxTextBytes    = 4096 // a default, a value, a review note
	maxValues       = 1000 // entries of one field's values
	minTier         = 10 * time.Second
	maxSettleDays   = 365
	maxConns        = 32
	maxListed       = 20 // problems a MappingError lists
)

// MappingError is a mapping file refused: every problem found, each with
// its line.
type MappingError struct {
	Problems []MappingProblem
	More     int // problems found past those listed
}

// MappingProblem is one thing wrong with a mapping file.
type MappingProblem struct {
	Line   int    // 0: the file as a whole
	Where  string // the key's path: entities.products.fields.price
	Reason string
}

func (p MappingProblem) String() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", p.Line)
	}
	if p.Where != "" {
		b.WriteString(p.Where + ": ")
	}
	b.WriteString(p.Reason)
	return b.String()
}

func (e *MappingError) Error() string {
	if len(e.Problems) == 1 && e.More == 0 {
		return "erpsync: mapping: " + e.Problems[0].String()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "erpsync: mapping has %d problems:", len(e.Problems)+e.More)
	for _, p := range e.Problems {
		b.WriteString("\n  " + p.String())
	}
	if e.More > 0 {
		fmt.Fprintf(&b, "\n  … and %d more", e.More)
	}
	return b.String()
}

// Parse reads a mapping file strictly: an unknown key, a value of the
// wrong shape, an unknown entity, field or transform, a required field
// without a column or a default, is refused with its line. ${VAR} in
// source.dsn expands from getenv (nowhere else, so that a query's text is
// never rewritten). The defaults are filled in: each entity's tier,
// settle_days 7, money in rupees, unit piece, GST 18%, a payment's mode
// bank_transfer, a sale delivered and an open order committed; the
// source's timezone is MUNSHI_TZ's, else Asia/Kolkata.
func Parse(data []byte, getenv func(string) string) (*Mapping, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	one := func(line int, format string, args ...any) error {
		return &MappingError{Problems: []MappingProblem{{Line: line, Reason: fmt.Sprintf(format, args...)}}}
	}
	if len(data) > MaxMappingBytes {
		return nil, one(0, "the file is larger than %d KiB", MaxMappingBytes>>10)
	}
	if !utf8.Valid(data) {
		return nil, one(firstBadLine(data), "not valid UTF-8 text")
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, one(0, "the file is empty: it needs source and entities")
		}
		return nil, yamlError(err)
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, one(next.Line, "a second YAML document; a mapping file holds one")
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlError(err)
	}
	p := &parser{getenv: getenv}
	m := p.file(&doc)
	if len(p.problems) > 0 {
		return nil, &MappingError{Problems: p.problems, More: p.more}
	}
	return m, nil
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError is the YAML parser's complaint as a MappingError.
func yamlError(err error) error {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &MappingError{Problems: []MappingProblem{{Line: line, Reason: "not YAML: " + m[2]}}}
	}
	return &MappingError{Problems: []MappingProblem{{Reason: "not YAML: " + strings.TrimPrefix(msg, "yaml: ")}}}
}

func firstBadLine(data []byte) int {
	for i, l := range bytes.Split(data, []byte("\n")) {
		if !utf8.Valid(l) {
			return i + 1
		}
	}
	return 1
}

// parser builds a Mapping from the YAML tree, noting every problem.
type parser struct {
	getenv   func(string) string
	problems []MappingProblem
	more     int
	noted    map[string]bool // paths with a problem
}

func (p *parser) bad(n *yaml.Node, where, format string, args ...any) {
	if p.noted == nil {
		p.noted = map[string]bool{}
	}
	p.noted[where] = true
	if len(p.problems) >= maxListed {
		p.more++
		return
	}
	line := 0
	if n != nil {
		line = n.Line
	}
	p.problems = append(p.problems, MappingProblem{Line: line, Where: where, Reason: fmt.Sprintf(format, args...)})
}

// keys walks a mapping node's keys, refusing a key not among known, a key
// given twice, and anchors and aliases (a mapping file has no need of
// them, and they are how YAML bombs are made).
func (p *parser) keys(n *yaml.Node, where string, known []string, each func(key string, k, v *yaml.Node)) bool {
	if !p.plain(n, where) {
		return false
	}
	if n.Kind != yaml.MappingNode {
		p.bad(n, where, "want a mapping of %s", strings.Join(known, ", "))
		return false
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !p.plain(k, where) || !p.plain(v, where) {
			continue
		}
		if k.Kind != yaml.ScalarNode {
			p.bad(k, where, "a key must be a name")
			continue
		}
		if first, ok := seen[k.Value]; ok {
			p.bad(k, where, "%q is given twice (first on line %d)", k.Value, first)
			continue
		}
		seen[k.Value] = k.Line
		if known != nil && !slices.Contains(known, k.Value) {
			p.bad(k, where, "unknown key %q (known: %s)", k.Value, strings.Join(known, ", "))
			continue
		}
		each(k.Value, k, v)
	}
	return true
}

// plain refuses anchors, aliases and explicit tags other than the core
// ones.
func (p *parser) plain(n *yaml.Node, where string) bool {
	switch {
	case n.Kind == yaml.AliasNode:
		p.bad(n, where, "aliases (*%s) are not allowed in a mapping file", n.Value)
		return false
	case n.Anchor != "":
		p.bad(n, where, "anchors (&%s) are not allowed in a mapping file", n.Anchor)
		return false
	case n.Tag == "!!merge":
		p.bad(n, where, "merge keys (<<) are not allowed in a mapping file")
		return false
	}
	return true
}

// scalar is a scalar node's text; null is "".
func (p *parser) scalar(n *yaml.Node, where string) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		p.bad(n, where, "want a single value, not a %s", nodeKind(n))
		return "", false
	}
	if n.Tag == "!!null" {
		return "", true
	}
	if n.Tag == "!!binary" {
		p.bad(n, where, "want text, not binary data")
		return "", false
	}
	return n.Value, true
}

func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	}
	return "value"
}

// text is a scalar that must fit in max bytes and hold no control
// character (other than line breaks and tabs where lines may).
func (p *parser) text(n *yaml.Node, where string, max int, lines bool) (string, bool) {
	s, ok := p.scalar(n, where)
	if !ok {
		return "", false
	}
	if len(s) > max {
		p.bad(n, where, "longer than %d bytes", max)
		return "", false
	}
	for _, r := range s {
		if lines && (r == '\n' || r == '\r' || r == '\t') {
			continue
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			p.bad(n, where, "holds the control character %U", r)
			return "", false
		}
	}
	return s, true
}

func (p *parser) integer(n *yaml.Node, where string, min, max int) (int, bool) {
	s, ok := p.scalar(n, where)
	if !ok {
		return 0, false
	}
	v, err := strconv.Atoi(s)
	if err != nil || n.Tag != "!!int" {
		p.bad(n, where, "%q is not a whole number", s)
		return 0, false
	}
	if v < min || v > max {
		p.bad(n, where, "%d must be from %d to %d", v, min, max)
		return 0, false
	}
	return v, true
}

func (p *parser) boolean(n *yaml.Node, where string) (bool, bool) {
	s, ok := p.scalar(n, where)
	if !ok {
		return false, false
	}
	if n.Tag != "!!bool" {
		p.bad(n, where, "%q is not true or false", s)
		return false, false
	}
	return strings.EqualFold(s, "true"), true
}

func (p *parser) duration(n *yaml.Node, where string, min time.Duration) (Duration, bool) {
	s, ok := p.scalar(n, where)
	if !ok {
		return 0, false
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		p.bad(n, where, "%q is not a duration like 30s, 2m or 1h", s)
		return 0, false
	}
	if d < min {
		if min == 0 {
			p.bad(n, where, "%s can't be negative", s)
		} else {
			p.bad(n, where, "%s is shorter than %s", s, shortDuration(min))
		}
		return 0, false
	}
	return Duration(d), true
}

// file reads the document.
func (p *parser) file(doc *yaml.Node) *Mapping {
	m := &Mapping{SettleDays: DefaultSettleDays, Entities: map[Entity]*EntitySpec{}}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		p.bad(doc, "", "the file is empty: it needs source and entities")
		return m
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		p.bad(root, "", "the file is empty: it needs source and entities")
		return m
	}
	var source, entities *yaml.Node
	p.keys(root, "", []string{"source", "settle_days", "entities"}, func(key string, k, v *yaml.Node) {
		switch key {
		case "source":
			source = v
			p.source(v, &m.Source)
		case "settle_days":
			if d, ok := p.integer(v, key, 1, maxSettleDays); ok {
				m.SettleDays = d
			}
		case "entities":
			entities = v
			p.entities(v, m)
		}
	})
	if root.Kind != yaml.MappingNode {
		return m
	}
	if source == nil {
		p.bad(root, "source", "missing: the ERP's dsn goes here")
	}
	if entities == nil {
		p.bad(root, "entities", "missing: at least one entity (products, customers, stock, …)")
	} else if len(m.Entities) == 0 && len(p.problems) == 0 {
		p.bad(entities, "entities", "no entity: map at least one of %s", entityNames())
	}
	tz := m.Source.Timezone
	if tz == "" {
		tz = strings.TrimSpace(p.getenv("MUNSHI_TZ"))
	}
	if tz == "" {
		m.loc = domain.DefaultLocation()
	} else if loc, err := time.LoadLocation(tz); err != nil || tz == "Local" {
		line := root
		if source != nil {
			line = source
		}
		p.bad(line, "source.timezone", "%q is not a time zone such as Asia/Kolkata", tz)
	} else {
		m.loc = loc
	}
	return m
}

func entityNames() string {
	names := make([]string, len(Entities))
	for i, e := range Entities {
		names[i] = string(e)
	}
	return strings.Join(names, ", ")
}

func (p *parser) source(n *yaml.Node, s *SourceSpec) {
	var dsnNode, connsNode, parNode *yaml.Node
	p.keys(n, "source", []string{"dsn", "connect_timeout", "query_timeout", "max_conns", "parallel", "timezone"}, func(key string, k, v *yaml.Node) {
		where := "source." + key
		switch key {
		case "dsn":
			dsnNode = v
			if d, ok := p.text(v, where, maxTextBytes, false); ok {
				s.DSN = strings.TrimSpace(d)
			}
		case "connect_timeout":
			if d, ok := p.duration(v, where, time.Second); ok {
				s.ConnectTimeout = d
			}
		case "query_timeout":
			if d, ok := p.duration(v, where, time.Second); ok {
				s.QueryTimeout = d
			}
		case "max_conns":
			connsNode = v
			if c, ok := p.integer(v, where, 1, maxConns); ok {
				s.MaxConns = c
			}
		case "parallel":
			parNode = v
			if c, ok := p.integer(v, where, 1, maxConns); ok {
				s.Parallel = c
			}
		case "timezone":
			if tz, ok := p.text(v, where, maxNameBytes, false); ok {
				s.Timezone = strings.TrimSpace(tz)
			}
		}
	})
	if n.Kind != yaml.MappingNode {
		return
	}
	switch {
	case dsnNode == nil:
		p.bad(n, "source.dsn", "missing: the ERP database's address, such as ${ERP_DSN}")
	case s.DSN == "":
		p.bad(dsnNode, "source.dsn", "empty: the ERP database's address, such as ${ERP_DSN}")
	default:
		dsn, err := expand(s.DSN, p.getenv)
		if err != nil {
			p.bad(dsnNode, "source.dsn", "%v", err)
		}
		s.ExpandedDSN = dsn
	}
	if connsNode != nil && parNode != nil && s.Parallel > s.MaxConns && s.MaxConns > 0 {
		p.bad(parNode, "source.parallel", "%d queries at once need at least as many connections (max_conns is %d)", s.Parallel, s.MaxConns)
	} else if connsNode == nil && s.Parallel > 2 {
		p.bad(parNode, "source.parallel", "%d queries at once need max_conns of at least %d (it is 2 when not given)", s.Parallel, s.Parallel)
	}
}

var varName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// expand replaces each ${VAR} with the variable's value. A '$' not
// followed by '{' is kept: passwords hold them.
func expand(s string, getenv func(string) string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("%q has ${ without its closing }", s)
		}
		name := s[i+2 : i+j]
		if !varName.MatchString(name) {
			return "", fmt.Errorf("${%s} is not a variable's name", name)
		}
		v := getenv(name)
		if v == "" {
			return "", fmt.Errorf("${%s} is not set in the environment", name)
		}
		b.WriteString(v)
		s = s[i+j+1:]
	}
}

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
