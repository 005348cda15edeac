package reports

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

func cloneArgs(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

type nameKind int

const (
	productKind nameKind = iota
	customerKind
)

// resolve turns a product or customer argument into what it names: ids as
// they are (a []string, from the deterministic path), or a name matched in
// the books (exact SKU or id, then name or alias) and by the Normalizer
// (aliases, Hindi spellings, typos). A name shared by a few (two Guptas)
// resolves to all of them. Nothing named is no filter.
func (t *Tools) resolve(ctx context.Context, kind nameKind, v any, understood map[string]any) ([]Named, error) {
	key := "product"
	match := t.Books.MatchProducts
	if kind == customerKind {
		key, match = "customer", t.Books.MatchCustomers
	}
	var out []Named
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []string:
		for _, id := range x[:min(len(x), 5)] {
			found, err := match(ctx, id, 1)
			if err != nil {
				return nil, err
			}
			if len(found) == 1 && found[0].ID == id {
				out = append(out, found[0])
			}
		}
		if len(out) == 0 && len(x) > 0 {
			return nil, domain.Errorf(domain.ENOTFOUND, "I couldn't find %s %s.", key, strings.Join(x, " or "))
		}
	case string:
		text := strings.TrimSpace(x)
		if text == "" {
			return nil, nil
		}
		found, err := match(ctx, text, 6)
		if err != nil {
			return nil, err
		}
		out = found
		if len(found) != 1 && t.Names != nil {
			var byName []Named
			for _, id := range t.entityIDs(kind, text) {
				f, err := match(ctx, id, 1)
				if err != nil {
					return nil, err
				}
				if len(f) == 1 && f[0].ID == id {
					byName = append(byName, f[0])
				}
			}
			if len(byName) > 0 {
				out = byName
			}
		}
		if len(out) == 0 {
			return nil, domain.Errorf(domain.ENOTFOUND, "I couldn't find a %s called %q.", key, clip(text, 40))
		}
		if len(out) > 5 {
			out = out[:5]
		}
	default:
		return nil, domain.Errorf(domain.EINVALID, "%s must be a name.", key)
	}
	understood[key] = ids(out)
	if len(out) == 1 {
		understood[key] = out[0].ID
	}
	return out, nil
}

func (t *Tools) entityIDs(kind nameKind, text string) []string {
	want := intent.EntityProduct
	if kind == customerKind {
		want = intent.EntityCustomer
	}
	for _, e := range t.Names.Normalize(text).Entities {
		if e.Kind == want {
			if len(e.IDs) > 0 {
				return e.IDs
			}
			return []string{e.ID}
		}
	}
	return nil
}

func ids(ns []Named) []string {
	if len(ns) == 0 {
		return nil
	}
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.ID
	}
	return out
}

func names(ns []Named) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Name)
	}
	return out
}

func orList(ns []Named) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprintf("%s (%s)", n.Name, n.ID)
	}
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// intArg reads a whole number from JSON (float64), Go ints or digits.
func intArg(args map[string]any, key string) (int64, error) {
	v, ok := args[key]
	if !ok || v == nil {
		return 0, nil
	}
	bad := domain.Errorf(domain.EINVALID, "%s must be a whole number.", key)
	switch x := v.(type) {
	case int:
		return int64(x), nil
	case int64:
		return x, nil
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > 1e15 {
			return 0, bad
		}
		return int64(x), nil
	case string:
		if strings.TrimSpace(x) == "" {
			return 0, nil
		}
		n, err := strconv.ParseInt(strings.ReplaceAll(strings.TrimSpace(x), ",", ""), 10, 64)
		if err != nil {
			return 0, bad
		}
		return n, nil
	}
	return 0, bad
}
