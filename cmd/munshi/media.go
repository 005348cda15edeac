package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/munshi/munshi/internal/redis"
	"github.com/munshi/munshi/media"
	"github.com/munshi/munshi/media/assets"
)

// newMedia keeps generated files (charts, Excel exports) in Redis when
// REDIS_URL is set, so that whichever instance Twilio asks serves them and
// a restart loses none, else in this process on Main's clock.
func (m *Main) newMedia() error {
	if m.Config.RedisURL == "" {
		m.Media = media.NewInProcess(media.Options{TTL: m.Config.MediaTTL, Now: m.now})
		return nil
	}
	rs, err := redis.NewMediaStore(m.Config.RedisURL, m.Config.RedisPrefix, redis.MediaOptions{TTL: m.Config.MediaTTL, Logger: m.Logger})
	if err != nil {
		return err
	}
	m.mediaRedis = rs
	m.Media = rs
	return nil
}

// registerMedia mounts GET|HEAD /media/{id}[/{name}] and the chart pages'
// static assets.
func (m *Main) registerMedia(mux *http.ServeMux) {
	(&media.Handler{Store: m.Media, Logger: m.Logger, Now: m.now}).Register(mux)
	mux.Handle(assets.Prefix, assets.Handler())
}

// serveMedia serves the generated files and the chart pages' assets alone
// on ln, for a command that answers people without the webhook server
// (munshi chat), so that the links in its replies open.
func (m *Main) serveMedia(ln net.Listener) *http.Server {
	mux := http.NewServeMux()
	m.registerMedia(mux)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second,
		ErrorLog: slog.NewLogLogger(m.Logger.Handler(), slog.LevelWarn)}
	go srv.Serve(ln)
	return srv
}

// mediaShelf is where reports keeps the files it makes: the media store,
// linked under MUNSHI_PUBLIC_URL.
type mediaShelf struct {
	store  media.Store
	public string
}

// Keep stores a file and returns its public link.
func (s mediaShelf) Keep(ctx context.Context, name string, body []byte) (string, error) {
	id, err := s.store.Put(ctx, media.File{Name: name, Body: body})
	if err != nil {
		return "", fmt.Errorf("media: keeping %s: %w", name, err)
	}
	return media.URL(s.public, id, name), nil
}

// publicBase is where links to Munshi point: MUNSHI_PUBLIC_URL, or this
// server's own address when none is set (the offline demo).
func (m *Main) publicBase() string {
	if m.Config.PublicURL != "" {
		return m.Config.PublicURL
	}
	return "http://" + m.Config.Addr
}
