package media

import (
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Handler serves stored files to whoever holds the link: Twilio fetching a
// chart to deliver, or an owner opening a chart page.
type Handler struct {
	Store  Store
	Logger *slog.Logger     // default slog.Default()
	Now    func() time.Time // default time.Now; for Cache-Control
}

// Register adds GET (and so HEAD) /media/{id} and /media/{id}/{name} to
// mux; other methods get 405 from the mux, with Allow: GET, HEAD.
func (h *Handler) Register(mux *http.ServeMux) {
	mux.HandleFunc("GET /media/{id}", h.serve)
	mux.HandleFunc("GET /media/{id}/{name}", h.serve)
}

// URL returns the public link of a stored file: publicBase (the
// MUNSHI_PUBLIC_URL) + /media/{id}/{name}, name cleaned as Put stores it,
// so the link serves the file. An empty or unacceptable name gives the
// link without a name.
func URL(publicBase, id, name string) string {
	u := strings.TrimRight(publicBase, "/") + "/media/" + url.PathEscape(id)
	if n, err := CleanName(name); err == nil {
		u += "/" + n
	}
	return u
}

func (h *Handler) serve(w http.ResponseWriter, r *http.Request) {
	log := h.Logger
	if log == nil {
		log = slog.Default()
	}
	id := r.PathValue("id")
	if !ValidID(id) {
		log.DebugContext(r.Context(), "media: not an id", "length", len(id))
		notFound(w)
		return
	}
	// The id is the link's only secret: logs carry a few characters of it.
	log = log.With("id", id[:4]+"…")
	f, err := h.Store.Get(r.Context(), id)
	switch domain.ErrorCode(err) {
	case "":
	case domain.ENOTFOUND, domain.EINVALID:
		log.DebugContext(r.Context(), "media: no such file")
		notFound(w)
		return
	default:
		log.WarnContext(r.Context(), "media: unable to read a file", "err", err)
		plain(w, http.StatusServiceUnavailable, "media store unavailable, try again\n")
		return
	}
	// A link names the file it was made for, or nothing: it cannot be
	// renamed into another download.
	if name := r.PathValue("name"); strings.HasSuffix(r.Pattern, "{name}") && name != f.Name {
		log.DebugContext(r.Context(), "media: name does not match")
		notFound(w)
		return
	}
	now := time.Now()
	if h.Now != nil {
		now = h.Now()
	}
	left := f.Expires.Sub(now)
	if left <= 0 {
		notFound(w)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", f.ContentType)
	hd.Set("Content-Length", strconv.Itoa(len(f.Body)))
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cache-Control", "private, max-age="+strconv.FormatInt(int64(left/time.Second), 10))
	disposition := "inline"
	if f.ContentType == TypeXLSX {
		disposition = "attachment"
	}
	name, _ := CleanName(f.Name) // a store's name is clean; this keeps quotes out regardless
	hd.Set("Content-Disposition", disposition+`; filename="`+name+`"`)
	if f.ContentType == TypeHTML {
		hd.Set("Content-Security-Policy", pagePolicy(f.Body))
	}
	log.DebugContext(r.Context(), "media: serving", "type", f.ContentType, "bytes", len(f.Body), "method", r.Method)
	if r.Method == http.MethodHead {
		return
	}
	w.Write(f.Body)
}

func notFound(w http.ResponseWriter) { plain(w, http.StatusNotFound, "not found\n") }

func plain(w http.ResponseWriter, code int, body string) {
	hd := w.Header()
	hd.Set("Content-Type", "text/plain; charset=utf-8")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write([]byte(body))
}
