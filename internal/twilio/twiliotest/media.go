package twiliotest

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// media is one file the server serves, and what the test programmed for it.
type media struct {
	path        string // the API path, as Twilio writes it (no Prefix)
	id          string // the media SID, ME…
	contentType string
	data        []byte
	lie         bool // the CDN serves the file as served
	served      string
	status      int    // the API's answer instead of the redirect
	hang        bool   // the API never answers
	chunked     bool   // the CDN sends no Content-Length
	location    string // where the API redirects instead of the CDN
	loop        bool   // the CDN redirects to itself
}

// cdnPath is where the fake's CDN serves its files.
const cdnPath = "/cdn/"

// AddMedia serves data as an inbound message's media file and returns its
// URL as Twilio writes it in MediaUrlN, on api.twilio.com.
func (s *Server) AddMedia(contentType string, data []byte) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.media) + 1
	m := &media{id: fmt.Sprintf("ME%032x", n), contentType: contentType, data: slices.Clone(data)}
	m.path = fmt.Sprintf("/2010-04-01/Accounts/%s/Messages/MM%032x/Media/%s", s.sid, n, m.id)
	if s.media == nil {
		s.media = map[string]*media{}
	}
	s.media[m.id] = m
	return "https://api.twilio.com" + m.path
}

// MediaFail makes the media URL answer with status, in Twilio's error body.
func (s *Server) MediaFail(mediaURL string, status int) {
	s.program(mediaURL, func(m *media) { m.status = status })
}

// MediaHang makes the media URL never answer: it holds until the client
// gives up or the server closes.
func (s *Server) MediaHang(mediaURL string) { s.program(mediaURL, func(m *media) { m.hang = true }) }

// MediaLie makes the CDN serve the file as contentType ("": with no
// Content-Type at all).
func (s *Server) MediaLie(mediaURL, contentType string) {
	s.program(mediaURL, func(m *media) { m.lie, m.served = true, contentType })
}

// MediaChunked makes the CDN send the file without a Content-Length.
func (s *Server) MediaChunked(mediaURL string) {
	s.program(mediaURL, func(m *media) { m.chunked = true })
}

// MediaRedirect makes the media URL redirect to location (another host)
// instead of the fake's CDN.
func (s *Server) MediaRedirect(mediaURL, location string) {
	s.program(mediaURL, func(m *media) { m.location = location })
}

// MediaLoop makes the CDN answer the file with a redirect to itself.
func (s *Server) MediaLoop(mediaURL string) { s.program(mediaURL, func(m *media) { m.loop = true }) }

// MediaRequests returns every request for a media URL or the CDN, in
// order of arrival.
func (s *Server) MediaRequests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.mediaReqs)
}

// MediaFetches counts the requests for media URLs: the fetches begun.
func (s *Server) MediaFetches() int {
	n := 0
	for _, r := range s.MediaRequests() {
		if !strings.HasPrefix(r.Path, s.prefix+cdnPath) {
			n++
		}
	}
	return n
}

// program changes what the server does for a media URL AddMedia gave.
func (s *Server) program(mediaURL string, change func(*media)) {
	u, err := url.Parse(mediaURL)
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.mediaAt(u.Path)
	if err != nil || m == nil {
		panic("twiliotest: not a media URL of this server: " + mediaURL)
	}
	change(m)
}

// mediaAt is the file whose API path is p, or nil; s.mu is held.
func (s *Server) mediaAt(p string) *media {
	if m := s.media[p[strings.LastIndexByte(p, '/')+1:]]; m != nil && m.path == p {
		return m
	}
	return nil
}

// serveMedia answers a request for a media URL or the CDN, and reports
// whether it was one.
func (s *Server) serveMedia(w http.ResponseWriter, r *http.Request) bool {
	p, ok := strings.CutPrefix(r.URL.Path, s.prefix)
	if !ok {
		return false
	}
	if id, ok := strings.CutPrefix(p, cdnPath); ok {
		s.serveCDN(w, r, id)
		return true
	}
	if !strings.Contains(p, "/Media/") {
		return false
	}
	n, mm, ok := s.arrive(r, func() *media { return s.mediaAt(p) })
	user, pass, hasAuth := r.BasicAuth()
	status := http.StatusTemporaryRedirect
	switch {
	case !ok || r.Method != http.MethodGet && r.Method != http.MethodHead:
		status = NotFound.Status
	case !hasAuth || user != s.sid || pass != s.token:
		status = Unauthenticated.Status
	case mm.hang:
		select {
		case <-r.Context().Done():
		case <-s.done:
		}
		return true
	case mm.status != 0:
		status = mm.status
	}
	s.answered(n, status)
	if status != http.StatusTemporaryRedirect {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(statusError(status).JSON()))
		return true
	}
	location := mm.location
	if location == "" {
		location = s.URL + s.prefix + cdnPath + mm.id
	}
	w.Header().Set("Location", location)
	w.WriteHeader(status)
	return true
}

// serveCDN serves a file with no auth, as Twilio's CDN serves a signed link.
func (s *Server) serveCDN(w http.ResponseWriter, r *http.Request, id string) {
	n, m, ok := s.arrive(r, func() *media { return s.media[id] })
	switch {
	case !ok:
		s.answered(n, http.StatusNotFound)
		http.NotFound(w, r)
		return
	case m.loop:
		s.answered(n, http.StatusFound)
		w.Header().Set("Location", s.URL+r.URL.Path)
		w.WriteHeader(http.StatusFound)
		return
	}
	s.answered(n, http.StatusOK)
	switch {
	case !m.lie:
		w.Header().Set("Content-Type", m.contentType)
	case m.served == "":
		w.Header()["Content-Type"] = nil // and not sniffed
	default:
		w.Header().Set("Content-Type", m.served)
	}
	if !m.chunked {
		w.Header().Set("Content-Length", strconv.Itoa(len(m.data)))
		w.Write(m.data)
		return
	}
	// Flushed before the end, the answer goes chunked, its length unsaid.
	half := len(m.data) / 2
	w.Write(m.data[:half])
	w.(http.Flusher).Flush()
	w.Write(m.data[half:])
}

// arrive records a request for a media URL or the CDN and returns its
// index and a copy of the file find names (under s.mu), if there is one.
func (s *Server) arrive(r *http.Request, find func() *media) (n int, m media, ok bool) {
	user, pass, hasAuth := r.BasicAuth()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mediaReqs = append(s.mediaReqs, Request{Method: r.Method, Path: r.URL.Path, User: user, Password: pass, HasAuth: hasAuth})
	if f := find(); f != nil {
		m, ok = *f, true
	}
	return len(s.mediaReqs) - 1, m, ok
}

// answered records the status the n-th media request was answered with.
func (s *Server) answered(n, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mediaReqs[n].Status = status
}

// statusError is the error Twilio answers status with. Its codes are 20000
// and the status (20404, 20500), but for authentication's.
func statusError(status int) Error {
	switch status {
	case Unauthenticated.Status:
		return Unauthenticated
	case NotFound.Status:
		return NotFound
	case ServerError.Status:
		return ServerError
	}
	return Error{status, 20000 + status, http.StatusText(status)}
}
