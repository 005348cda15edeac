package erpsync

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/munshi/munshi/internal/domain"
)

// The mapping file's top level and its source: the DSN (with ${VAR}
// expanded from the environment, never written back), the timeouts and
// the pool.

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
