package media

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/domain"
)

// The exact content types of the three kinds of file Munshi sends.
const (
	TypePNG  = "image/png"
	TypeHTML = "text/html; charset=utf-8"
	TypeXLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
)

// WhatsApp's limits on media Twilio fetches, in decimal megabytes as Twilio
// states them: a larger file would be stored only to fail at delivery.
const (
	MaxImageBytes    = 5_000_000
	MaxDocumentBytes = 16_000_000
)

// DefaultTTL is how long a file lives when neither the store nor the
// caller says otherwise (MUNSHI_MEDIA_TTL).
const DefaultTTL = time.Hour

// File is one generated file.
type File struct {
	// Name is the download name, e.g. "outstanding-2026-11-30.xlsx". Put
	// stores it cleaned (see CleanName), and only a link carrying that name
	// (or none) serves the file.
	Name string
	// ContentType is TypePNG, TypeHTML or TypeXLSX; empty means the one
	// of the name's extension.
	ContentType string
	// Body is the file's bytes; a stored file's Body must not be modified.
	Body []byte
	// Created is set by Put. Expires is when the file is gone: zero means
	// the store's TTL after Put.
	Created, Expires time.Time
}

// Store keeps generated files until they expire. Implementations are safe
// for concurrent use.
type Store interface {
	// Put checks f (see Prepare) and stores it under a new id, which it
	// returns. EINVALID: a file Munshi may not send.
	Put(ctx context.Context, f File) (string, error)
	// Get returns the file stored under id. ENOTFOUND: none, or it has
	// expired; EINVALID: id is not an id.
	Get(ctx context.Context, id string) (File, error)
}

// ErrNotFound is the error of a Get for a file that is not (or no longer)
// there. It says nothing of the id, which is the link's only secret.
var ErrNotFound = &domain.Error{Code: domain.ENOTFOUND, Message: "media: no such file, or it has expired"}

// kind is one kind of file Munshi may send.
type kind struct {
	ext         string
	contentType string
	max         int64
	magic       string // the bytes every such file starts with
	label       string // for messages: "images", "documents"
}

var kinds = []kind{
	{".png", TypePNG, MaxImageBytes, "\x89PNG\r\n\x1a\n", "images"},
	{".html", TypeHTML, MaxDocumentBytes, "", "documents"},
	{".xlsx", TypeXLSX, MaxDocumentBytes, "PK\x03\x04", "documents"}, // a zip
}

// maxBase bounds the name before its extension.
const maxBase = 80

// CleanName returns name as Munshi stores and links it: ASCII letters,
// digits and underscores, every other run of characters made one dash
// ("Outstanding 30/11.xlsx" → "Outstanding-30-11.xlsx"), at most 80
// characters before a lower-cased .png, .html or .xlsx. A name with
// nothing left before the extension becomes "file". EINVALID: another
// extension.
func CleanName(name string) (string, error) {
	n, _, err := cleanName(name)
	return n, err
}

func cleanName(name string) (string, kind, error) {
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 {
		return "", kind{}, domain.Errorf(domain.EINVALID, "media: file name %s has no extension (want .png, .html or .xlsx)", short(name))
	}
	ext := strings.ToLower(strings.TrimSpace(name[dot:]))
	for _, k := range kinds {
		if k.ext == ext {
			return cleanBase(name[:dot]) + k.ext, k, nil
		}
	}
	return "", kind{}, domain.Errorf(domain.EINVALID, "media: %s is not a .png, .html or .xlsx file", short(name))
}

func cleanBase(base string) string {
	var b strings.Builder
	dash := false
	for _, r := range base {
		if b.Len() >= maxBase {
			break
		}
		switch {
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'):
			b.WriteRune(r)
			dash = false
		case b.Len() > 0 && !dash:
			b.WriteByte('-')
			dash = true
		}
	}
	if s := strings.TrimRight(b.String(), "-"); s != "" {
		return s
	}
	return "file"
}

// Prepare is what every Store's Put does before storing: it cleans the
// name, fills in the content type, checks the file (see Check), and stamps
// Created with now and, when the caller left it zero, Expires with now+ttl
// (DefaultTTL when ttl is not positive).
func Prepare(f File, now time.Time, ttl time.Duration) (File, error) {
	name, k, err := cleanName(f.Name)
	if err != nil {
		return File{}, err
	}
	f.Name = name
	if f.ContentType == "" {
		f.ContentType = k.contentType
	}
	if err := Check(f); err != nil {
		return File{}, err
	}
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	f.Created = now
	if f.Expires.IsZero() {
		f.Expires = now.Add(ttl)
	} else if f.Expires.Sub(now) < time.Millisecond {
		return File{}, domain.Errorf(domain.EINVALID, "media: %s would expire before it is stored", f.Name)
	}
	return f, nil
}

// Check reports whether f may be stored and served as it is: a clean name
// of an allowed kind, that kind's exact content type, a body within
// WhatsApp's limit for it that really is such a file (a PNG signature, a
// zip for .xlsx, UTF-8 for HTML). Stores call it again on what they read
// back from shared storage.
func Check(f File) error {
	name, k, err := cleanName(f.Name)
	if err != nil {
		return err
	}
	if name != f.Name {
		return domain.Errorf(domain.EINVALID, "media: file name %s is not clean (want %s)", short(f.Name), name)
	}
	if f.ContentType != k.contentType {
		return domain.Errorf(domain.EINVALID, "media: %s must be %q, not %s", f.Name, k.contentType, short(f.ContentType))
	}
	size := int64(len(f.Body))
	switch {
	case size == 0:
		return domain.Errorf(domain.EINVALID, "media: %s is empty", f.Name)
	case size > k.max:
		return domain.Errorf(domain.EINVALID, "media: %s is %s bytes; WhatsApp takes %s up to %d MB",
			f.Name, domain.GroupIndian(size), k.label, k.max/1_000_000)
	case !bytes.HasPrefix(f.Body, []byte(k.magic)):
		return domain.Errorf(domain.EINVALID, "media: %s is not a %s file", f.Name, k.ext)
	case k.contentType == TypeHTML && !utf8.Valid(f.Body):
		return domain.Errorf(domain.EINVALID, "media: %s is not UTF-8", f.Name)
	}
	return nil
}

// short quotes s for an error message, cut to a readable length.
func short(s string) string {
	const most = 60
	if utf8.RuneCountInString(s) <= most {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q…", string([]rune(s)[:most]))
}
