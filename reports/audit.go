package reports

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/domain"
)

// Audit kinds the tools write: every call is one entry, KindTool when it
// ran (or failed) and KindRefusal when the person's role may not use it.
const (
	KindTool    = "tool"
	KindRefusal = "refusal" // the audit package's refusal kind
)

// record audits one call. Arguments are cut to the tool's own parameters
// and short strings; the audit log redacts secrets on top.
func (t *Tools) record(ctx context.Context, user domain.User, name string, args map[string]any, res Result, err error) {
	if t.Audit == nil {
		return
	}
	rows := 0
	if res.Report != nil {
		rows = res.Report.Rows()
	}
	detail := map[string]any{
		"tool": name, "role": string(user.Role), "args": auditArgs(name, args), "rows": rows,
		"latency_us": res.Latency.Microseconds(), "refused": res.Refused,
	}
	if err != nil && !res.Refused {
		detail["error"] = domain.ErrorCode(err)
		if domain.ErrorCode(err) == domain.EINTERNAL {
			detail["error_text"] = clip(err.Error(), 200)
		}
	}
	kind := KindTool
	if res.Refused {
		kind = KindRefusal
	}
	t.Audit.Record(ctx, user.Phone, kind, name, detail)
}

func auditArgs(name string, args map[string]any) map[string]any {
	out := map[string]any{}
	spec, _ := specByName(name)
	for k, v := range args {
		if k != "offset" && !slices.ContainsFunc(spec.Parameters, func(p ParamSpec) bool { return p.Name == k }) {
			out["ignored"] = append(asStrings(out["ignored"]), clip(k, 40))
			continue
		}
		switch x := v.(type) {
		case string:
			out[k] = clip(x, 80)
		case []string:
			out[k] = clip(strings.Join(x, "|"), 80)
		case bool, int, int64, float64:
			out[k] = x
		default:
			out[k] = clip(fmt.Sprint(x), 80)
		}
	}
	return out
}

func asStrings(v any) []string {
	s, _ := v.([]string)
	return s
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
