package erpsync

import (
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Mapping is a sync mapping file: where the ERP is, and for each entity
// the query that reads it and how its columns become Munshi's fields.
// Parse reads one, with its defaults filled in; Marshal writes it back.
type Mapping struct {
	Source     SourceSpec             `yaml:"source"`
	SettleDays int                    `yaml:"settle_days,omitempty"`
	Entities   map[Entity]*EntitySpec `yaml:"entities"`

	loc *time.Location // Source.Timezone, resolved
}

// SourceSpec is the ERP's database and how to talk to it.
type SourceSpec struct {
	// DSN is as the file writes it, ${VAR} and all: what Marshal writes
	// back. ExpandedDSN is what to connect to.
	DSN            string   `yaml:"dsn"`
	ConnectTimeout Duration `yaml:"connect_timeout,omitempty"`
	QueryTimeout   Duration `yaml:"query_timeout,omitempty"`
	MaxConns       int      `yaml:"max_conns,omitempty"`
	Parallel       int      `yaml:"parallel,omitempty"`
	Timezone       string   `yaml:"timezone,omitempty"`

	// ExpandedDSN is DSN with ${VAR} expanded from the environment. It
	// may hold a password: never log it (erp.Source.Redacted does that).
	ExpandedDSN string `yaml:"-"`
}

// EntitySpec is one entity's query and mapping.
type EntitySpec struct {
	Tier   Duration              `yaml:"tier,omitempty"`
	Query  string                `yaml:"query"`
	Since  *SinceSpec            `yaml:"since,omitempty"`
	Full   *bool                 `yaml:"full,omitempty"`
	Fields map[string]*FieldSpec `yaml:"fields"`
}

// SinceSpec makes an entity incremental: the query reads rows changed
// after the watermark less the overlap, bound as the dialect's :since.
type SinceSpec struct {
	Column  string   `yaml:"column"`
	Overlap Duration `yaml:"overlap,omitempty"`
}

// FieldSpec is how one Munshi field is read from the query's columns.
type FieldSpec struct {
	Column    string            `yaml:"column,omitempty"`
	Transform []string          `yaml:"transform,omitempty"`
	Money     string            `yaml:"money,omitempty"` // rupees (default) or paise
	Factor    float64           `yaml:"factor,omitempty"`
	Default   string            `yaml:"default,omitempty"`
	Values    map[string]string `yaml:"values,omitempty"`
	Review    string            `yaml:"review,omitempty"`    // why a draft's choice is uncertain; ignored by sync
	Suggested bool              `yaml:"suggested,omitempty"` // the name came from the model; ignored by sync
}

// Money units.
const (
	Rupees = "rupees"
	Paise  = "paise"
)

// DefaultSettleDays is how far apart a chat entry and the ERP's may be and
// still be one event, when the mapping does not say.
const DefaultSettleDays = 7

// Location is the ERP's wall clock: the source's timezone.
func (m *Mapping) Location() *time.Location {
	if m.loc == nil {
		return domain.DefaultLocation()
	}
	return m.loc
}

// Mapped lists the entities the mapping names, in run order.
func (m *Mapping) Mapped() []Entity {
	var out []Entity
	for _, e := range Entities {
		if m.Entities[e] != nil {
			out = append(out, e)
		}
	}
	return out
}

// Incremental reports whether the entity reads only rows changed since
// the last run.
func (s *EntitySpec) Incremental() bool { return s.Since != nil && s.Since.Column != "" }

// IsFull reports whether the entity's query returns every row, so that
// what it does not return is gone: inactive products and customers, paid
// bills, orders no longer open.
func (s *EntitySpec) IsFull(e Entity) bool {
	if !entityDefs[e].full || s.Incremental() {
		return false
	}
	return s.Full == nil || *s.Full
}

// TierOf is how often the entity is synced.
func (s *EntitySpec) TierOf(e Entity) time.Duration {
	if s.Tier > 0 {
		return time.Duration(s.Tier)
	}
	return entityDefs[e].tier
}

// Maps reports whether the entity maps the field (to a column or a
// default).
func (s *EntitySpec) Maps(field string) bool {
	f := s.Fields[field]
	return f != nil && (f.Column != "" || f.Default != "")
}

// DefaultTier is the tier of an entity whose mapping names none.
func DefaultTier(e Entity) time.Duration { return entityDefs[e].tier }

// StaleAfter is, for each figure the mapping makes the ERP's, how old its
// last sync may be before an answer built on it says as of when: three
// times the tier of the entity that sets it (the quickest, when two do).
func (m *Mapping) StaleAfter() map[Figure]time.Duration {
	out := map[Figure]time.Duration{}
	for e, spec := range m.Entities {
		for _, f := range ownsOf(e, spec) {
			d := 3 * spec.TierOf(e)
			if old, ok := out[f]; !ok || d < old {
				out[f] = d
			}
		}
	}
	return out
}
