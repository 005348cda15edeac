package erpsync

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
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
