package audit

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
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
	KindMedia    = "media" // a voice note or photo: its type, size and hash, never its bytes

	// KindHandoff is a conversation handed over to the office: opened,
	// relayed either way, closed, reminded.
	KindHandoff = "handoff"
)

// Redacted replaces a secret.
const Redacted = "[redacted]"

// Entry is one line of the audit log. Detail is already redacted when an
// entry reaches the store: Log does that first.
type Entry struct {
	ID      int64
	At      time.Time // the store's clock when zero
	Actor   string
	Kind    string
	Subject string
	Detail  map[string]any
}

// Appender is the part of the store the log writes to.
type Appender interface {
	// AppendAudit writes entries in order, in one transaction; an entry
	// the store cannot encode is refused, with an error, and the others
	// are written.
	AppendAudit(ctx context.Context, es ...Entry) error
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

// Record writes one entry, or holds it in a message's context (Hold). A
// failure is logged, not returned: the audit log must never be the reason
// a person gets no answer.
func (l *Log) Record(ctx context.Context, actor, kind, subject string, detail map[string]any) {
	e := Entry{Actor: actor, Kind: kind, Subject: l.RedactString(subject), Detail: l.Redact(detail)}
	before, held := l.hold(ctx, e)
	if !held {
		l.write(ctx, append(before, e))
	}
}

func (l *Log) write(ctx context.Context, es []Entry) {
	if err := l.store.AppendAudit(context.WithoutCancel(ctx), es...); err != nil {
		l.logger.Error("audit: write failed", "kind", es[len(es)-1].Kind, "entries", len(es), "err", err)
	}
}

var (
	// secretKey matches keys that name a credential ("auth_token",
	// "Authorization", "x-api-key") but not counts such as "prompt_tokens".
	secretKey = regexp.MustCompile(`(?i)(^|[_\-])(token|secret|password|passwd|api[_\-]?key|authorization|signature|credentials?)$|^(auth|access|refresh)_?token`)
	// Shapes of credentials that might arrive inside free text, each
	// with a piece of text it cannot match without (see mayHold).
	secretShapes = []shape{
		{regexp.MustCompile(`AIza[0-9A-Za-z_\-]{35}`), "AIza", false},                         // Google API keys
		{regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{8,}`), "bearer", true},         // bearer auth headers
		{regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{16,}`), "sk-", false},                         // provider secret keys (lower case: SKUs are upper)
		{regexp.MustCompile(`(?i)(smtps?|redis|rediss)://[^:@/\s]*:[^@/\s]+@`), "://", false}, // passwords in URLs (redis://:pass@ too)
	}
	// SASL initial responses echoed by a mail server or a log: the
	// mechanism stays, the credential goes.
	saslInitial = regexp.MustCompile(`(?i)(\b(?:AUTH\s+PLAIN|XOAUTH2|OAUTHBEARER)\s+)([A-Za-z0-9+/]{4,}={0,2})`)
	// authLogin starts an AUTH LOGIN exchange, whose credentials follow as
	// base64 continuation lines (each perhaps after "C:"/"S:" or a 334).
	authLogin = regexp.MustCompile(`(?i)\bAUTH\s+LOGIN\b`)
	loginStep = regexp.MustCompile(`^[\s,;]*(?:(?:[CS]:|334\b)\s*)*([A-Za-z0-9+/]+={0,2})`)
	// basicAuth is a Basic auth header. Only a token that decodes to
	// user:password is redacted, so that "basic cleaning kit" stays as written.
	basicAuth = regexp.MustCompile(`(?i)\bbasic\s+([A-Za-z0-9+/]{8,}={0,2})`)
)

// shape is a credential's shape, and a piece of text that every match
// holds (in any case when fold is set): a string without it is passed
// over without running the expression.
type shape struct {
	re   *regexp.Regexp
	must string
	fold bool
}

// folded is a string as (?i) expressions of ASCII words read it: its
// ASCII letters in lower case, and whether it has one of the non-ASCII
// letters Unicode folds k and s with (K, ſ).
type folded struct {
	lower   string
	foldsKS bool
}

func foldOf(s string) folded {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return folded{lower: string(b), foldsKS: strings.Contains(s, "\u212a") || strings.Contains(s, "\u017f")}
}

// mayHold reports whether the string may hold text that (?i) matches
// word (ASCII, lower case).
func (f folded) mayHold(word string) bool {
	return strings.Contains(f.lower, word) || (f.foldsKS && strings.ContainsAny(word, "ks"))
}

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

// RedactString removes configured secrets and credential shapes from s,
// and the invisible characters that would make it read otherwise.
func (l *Log) RedactString(s string) string { return l.redactString(s, false) }

// redactString is RedactString. Each expression runs only on a string
// that holds the text its matches need, which ordinary messages do not,
// unless everywhere is set (for the tests that compare the two).
func (l *Log) redactString(s string, everywhere bool) string {
	s = dropInvisible(s)
	for _, secret := range l.secrets {
		s = strings.ReplaceAll(s, secret, Redacted)
	}
	// may says whether an expression needing word may match s (as it
	// is folded in f); s is folded again after each that ran.
	f := foldOf(s)
	may := func(word string, fold bool) bool {
		return everywhere || (fold && f.mayHold(word)) || (!fold && strings.Contains(s, word))
	}
	for _, sh := range secretShapes {
		if may(sh.must, sh.fold) {
			s = sh.re.ReplaceAllString(s, Redacted)
			f = foldOf(s)
		}
	}
	if may("auth", true) { // AUTH PLAIN, XOAUTH2, OAUTHBEARER, AUTH LOGIN
		s = saslInitial.ReplaceAllStringFunc(s, func(m string) string {
			sub := saslInitial.FindStringSubmatch(m)
			if _, ok := decodeBase64(sub[2]); ok {
				return sub[1] + Redacted
			}
			return m
		})
		s = redactAuthLogin(s)
		f = foldOf(s)
	}
	if t := redactPlainResponses(s); t != s {
		s, f = t, foldOf(t)
	}
	if !may("basic", true) {
		return s
	}
	return basicAuth.ReplaceAllStringFunc(s, func(m string) string {
		if isBasicCredential(basicAuth.FindStringSubmatch(m)[1]) {
			return Redacted
		}
		return m
	})
}

// redactPlainResponses replaces every base64 token of s that decodes to
// a SASL PLAIN response ("\0user\0pass", perhaps after an authorisation
// identity), wherever it stands, for instance on the line after "AUTH
// PLAIN". A token is a run of at least 8 base64 letters and up to two
// '=' after it, the run taken whole.
func redactPlainResponses(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !isBase64Letter(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isBase64Letter(s[j]) {
			j++
		}
		if j-i < 8 {
			i = j
			continue
		}
		k := j
		for k < len(s) && k < j+2 && s[k] == '=' {
			k++
		}
		if dec, ok := decodeBase64(s[i:k]); ok && strings.Count(string(dec), "\x00") == 2 {
			b.WriteString(s[last:i])
			b.WriteString(Redacted)
			last = k
		}
		i = k
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isBase64Letter(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/'
}

// redactAuthLogin removes the base64 steps that follow each AUTH LOGIN,
// up to the first word that is not one (a reply code, "failed").
func redactAuthLogin(s string) string {
	locs := authLogin.FindAllStringIndex(s, -1)
	if locs == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, loc := range locs {
		if loc[0] < last {
			continue
		}
		b.WriteString(s[last:loc[1]])
		i := loc[1]
		for {
			m := loginStep.FindStringSubmatchIndex(s[i:])
			if m == nil {
				break
			}
			if _, ok := decodeBase64(s[i+m[2] : i+m[3]]); !ok {
				break
			}
			b.WriteString(s[i : i+m[2]])
			b.WriteString(Redacted)
			i += m[3]
		}
		last = i
	}
	b.WriteString(s[last:])
	return b.String()
}

// decodeBase64 decodes a padded base64 token that holds text (a user name,
// a password, "\0user\0pass", XOAUTH2's "user=…\x01auth=…"); ordinary
// words rarely decode to valid UTF-8 without other control characters.
func decodeBase64(tok string) ([]byte, bool) {
	b, err := base64.StdEncoding.DecodeString(tok)
	if err != nil || len(b) == 0 || !utf8.Valid(b) {
		return nil, false
	}
	for _, r := range string(b) {
		if r > 1 && (r < 0x20 || r == 0x7f) {
			return nil, false
		}
	}
	return b, true
}

// isBasicCredential reports whether tok is base64 of "user:password".
func isBasicCredential(tok string) bool {
	b, err := base64.StdEncoding.DecodeString(tok)
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(tok)
	}
	return err == nil && utf8.Valid(b) && strings.Contains(string(b), ":")
}
