package audit

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/store/sqlite"
)

// Kinds of audit entries.
const (
	KindInbound  = "inbound"
	KindDecision = "decision"
	KindOutbound = "outbound"
	KindRefusal  = "refusal"
	KindImport   = "import"
	KindDelivery = "delivery"
	KindLLM      = "llm_call"
)

// Redacted replaces a secret.
const Redacted = "[redacted]"

// Appender is the part of the store the log writes to.
type Appender interface {
	AppendAudit(ctx context.Context, e sqlite.AuditEntry) error
}

// Log records audit entries.
type Log struct {
	store   Appender
	secrets []string
	logger  *slog.Logger
}

// New returns a log writing to store that redacts the given secret values.
func New(store Appender, secrets []string, logger *slog.Logger) *Log {
	var keep []string
	for _, s := range secrets {
		if len(s) >= 4 { // shorter values would redact ordinary words
			keep = append(keep, s)
		}
	}
	return &Log{store: store, secrets: keep, logger: logger}
}

// Record writes one entry. A failure is logged, not returned: the audit log
// must never be the reason a person gets no answer.
func (l *Log) Record(ctx context.Context, actor, kind, subject string, detail map[string]any) {
	e := sqlite.AuditEntry{Actor: actor, Kind: kind, Subject: l.RedactString(subject), Detail: l.Redact(detail)}
	if err := l.store.AppendAudit(context.WithoutCancel(ctx), e); err != nil {
		l.logger.Error("audit: write failed", "kind", kind, "err", err)
	}
}

var (
	// secretKey matches keys that name a credential ("auth_token",
	// "Authorization", "x-api-key") but not counts such as "prompt_tokens".
	secretKey = regexp.MustCompile(`(?i)(^|[_\-])(token|secret|password|passwd|api[_\-]?key|authorization|signature|credentials?)$|^(auth|access|refresh)_?token`)
	// Shapes of credentials that might arrive inside free text.
	secretShapes = []*regexp.Regexp{
		regexp.MustCompile(`AIza[0-9A-Za-z_\-]{35}`),                          // Google API keys
		regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{8,}`),           // bearer auth headers
		regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{16,}`),                         // provider secret keys (lower case: SKUs are upper)
		regexp.MustCompile(`(?i)(smtps?|redis|rediss)://[^:@/\s]*:[^@/\s]+@`), // passwords in URLs (redis://:pass@ too)
	}
	// basicAuth is a Basic auth header. Only a token that decodes to
	// user:password is redacted, so that "basic cleaning kit" stays as written.
	basicAuth = regexp.MustCompile(`(?i)\bbasic\s+([A-Za-z0-9+/]{8,}={0,2})`)
)

// Redact returns a copy of detail with secrets replaced.
func (l *Log) Redact(detail map[string]any) map[string]any {
	if detail == nil {
		return map[string]any{}
	}
	out := make(map[string]any, len(detail))
	for k, v := range detail {
		if secretKey.MatchString(k) {
			out[k] = Redacted
			continue
		}
		out[k] = l.redactValue(v)
	}
	return out
}

func (l *Log) redactValue(v any) any {
	switch x := v.(type) {
	case string:
		return l.RedactString(x)
	case map[string]any:
		return l.Redact(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = l.redactValue(e)
		}
		return out
	case []string:
		out := make([]string, len(x))
		for i, e := range x {
			out[i] = l.RedactString(e)
		}
		return out
	case nil, bool, int, int64, float64:
		return v
	}
	// Any other type (map[string]string, http.Header, a struct…) is stored
	// as JSON: redact its JSON form so that nothing escapes by its type.
	b, err := json.Marshal(v)
	if err != nil {
		return v // the store cannot write it either, and says so
	}
	var generic any
	if err := json.Unmarshal(b, &generic); err != nil {
		return v
	}
	switch generic.(type) {
	case string, map[string]any, []any:
		return l.redactValue(generic)
	}
	return v
}

// RedactString removes configured secrets and credential shapes from s.
func (l *Log) RedactString(s string) string {
	for _, secret := range l.secrets {
		s = strings.ReplaceAll(s, secret, Redacted)
	}
	for _, re := range secretShapes {
		s = re.ReplaceAllString(s, Redacted)
	}
	return basicAuth.ReplaceAllStringFunc(s, func(m string) string {
		if isBasicCredential(basicAuth.FindStringSubmatch(m)[1]) {
			return Redacted
		}
		return m
	})
}

// isBasicCredential reports whether tok is base64 of "user:password".
func isBasicCredential(tok string) bool {
	b, err := base64.StdEncoding.DecodeString(tok)
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(tok)
	}
	return err == nil && utf8.Valid(b) && strings.Contains(string(b), ":")
}
