package erpsync

import (
	"fmt"
	"time"

	"go.yaml.in/yaml/v3"
)

// Duration is a time.Duration written as "2m" or "1h30m" in YAML.
type Duration time.Duration

// UnmarshalYAML reads "2m"; a bare number is refused (seconds or minutes?).
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil || v < 0 {
		return fmt.Errorf("erpsync: line %d: %q is not a duration like 2m or 1h", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes the duration as time.Duration spells it, trimmed.
func (d Duration) MarshalYAML() (any, error) { return shortDuration(time.Duration(d)), nil }

// shortDuration spells 2m0s as 2m and 1h0m0s as 1h.
func shortDuration(d time.Duration) string {
	s := d.String()
	for _, z := range []string{"m0s", "h0m"} {
		if len(s) > len(z) && s[len(s)-len(z):] == z {
			s = s[:len(s)-len(z)+1]
		}
	}
	return s
}
