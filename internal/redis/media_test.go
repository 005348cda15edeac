package redis_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/redis"
	"github.com/munshi/munshi/internal/redis/redistest"
	"github.com/munshi/munshi/media"
	"github.com/munshi/munshi/media/mediatest"
)

func newMediaStore(tb testing.TB, prefix string, opts redis.MediaOptions) *redis.MediaStore {
	tb.Helper()
	if opts.Logger == nil {
		opts.Logger = quiet
	}
	s, err := redis.NewMediaStore(redistest.URL(), prefix, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func TestMediaStore(t *testing.T) {
	mediatest.Run(t, func(t *testing.T) mediatest.Backend {
		prefix := redistest.Prefix(t, redistest.Need(t))
		return mediatest.Backend{
			Store: newMediaStore(t, prefix, redis.MediaOptions{}),
			Peer:  newMediaStore(t, prefix, redis.MediaOptions{}), // a second Munshi instance
			TTL:   media.DefaultTTL,
		}
	})
}

// TestMediaAcrossInstancesUntilTTL: a file made on one instance is served
// by another, and Redis's expiry removes it for both when the store's TTL
// ends.
func TestMediaAcrossInstancesUntilTTL(t *testing.T) {
	raw := redistest.Need(t)
	prefix := redistest.Prefix(t, raw)
	const ttl = time.Second
	maker, other := newMediaStore(t, prefix, redis.MediaOptions{TTL: ttl}), newMediaStore(t, prefix, redis.MediaOptions{TTL: ttl})
	body := mediatest.PNG(10, 10)
	start := time.Now()
	id, err := maker.Put(ctx(t), media.File{Name: "sales trend.png", Body: body})
	if err != nil {
		t.Fatal(err)
	}
	left, err := raw.PTTL(ctx(t), prefix+"media:"+id).Result()
	if err != nil || left <= 0 || left > ttl {
		t.Fatalf("key's PTTL %v, %v; want within the TTL %v", left, err, ttl)
	}
	f, err := other.Get(ctx(t), id)
	if err == nil {
		if f.Name != "sales-trend.png" || !bytes.Equal(f.Body, body) || f.Expires.After(start.Add(ttl+time.Second)) {
			t.Fatalf("other instance served %q, %d bytes, expiring %v", f.Name, len(f.Body), f.Expires)
		}
	} else if time.Since(start) < ttl/2 {
		t.Fatalf("other instance: %v", err)
	}
	mediatest.WaitGone(t, other, id, 15*time.Second)
	mediatest.WaitGone(t, maker, id, time.Second)
	if n, _ := raw.Exists(ctx(t), prefix+"media:"+id).Result(); n != 0 {
		t.Fatal("the key outlived its file")
	}
}

// TestMediaSurvivesRestart: a new store object on the same Redis (Munshi
// restarted) still serves the file, with what is left of its life.
func TestMediaSurvivesRestart(t *testing.T) {
	prefix := redistest.Prefix(t, redistest.Need(t))
	before := newMediaStore(t, prefix, redis.MediaOptions{})
	xlsx := mediatest.XLSX(5000)
	id, err := before.Put(ctx(t), media.File{Name: "outstanding-2026-11-30.xlsx", Body: xlsx})
	if err != nil {
		t.Fatal(err)
	}
	first, _ := before.Get(ctx(t), id)
	before.Close()
	after := newMediaStore(t, prefix, redis.MediaOptions{})
	f, err := after.Get(ctx(t), id)
	if err != nil {
		t.Fatalf("Get after a restart: %v", err)
	}
	if !bytes.Equal(f.Body, xlsx) || f.ContentType != media.TypeXLSX || !f.Created.Equal(first.Created) ||
		f.Expires.Sub(first.Expires).Abs() > time.Second {
		t.Fatalf("after a restart: %q %q created %v expires %v; before: created %v expires %v",
			f.Name, f.ContentType, f.Created, f.Expires, first.Created, first.Expires)
	}
}

// TestMediaKeys: one key per file, under the prefix, always with an expiry.
func TestMediaKeys(t *testing.T) {
	raw := redistest.Need(t)
	prefix := redistest.Prefix(t, raw)
	s := newMediaStore(t, prefix, redis.MediaOptions{TTL: 10 * time.Minute})
	ids := map[string]bool{}
	for _, name := range []string{"a.png", "b.html", "c.xlsx"} {
		body := map[string][]byte{"a.png": mediatest.PNG(2, 2), "b.html": mediatest.Page(), "c.xlsx": mediatest.XLSX(10)}[name]
		id, err := s.Put(ctx(t), media.File{Name: name, Body: body})
		if err != nil {
			t.Fatal(err)
		}
		ids[s.MediaKey(id)] = true
	}
	keys := redistest.Keys(ctx(t), raw, prefix+"*")
	if len(keys) != 3 {
		t.Fatalf("%d keys, want 3: %v", len(keys), keys)
	}
	for _, k := range keys {
		ttl, _ := raw.PTTL(ctx(t), k).Result()
		if !ids[k] || !strings.HasPrefix(k, prefix+"media:") || ttl <= 0 || ttl > 10*time.Minute {
			t.Errorf("key %s: ours %v, PTTL %v", k, ids[k], ttl)
		}
	}
}

// TestMediaUnreadableIsNotServed: what another writer left under a media
// key is served only if Munshi would have stored it.
func TestMediaUnreadableIsNotServed(t *testing.T) {
	raw := redistest.Need(t)
	prefix := redistest.Prefix(t, raw)
	s := newMediaStore(t, prefix, redis.MediaOptions{})
	page := string(mediatest.Page())
	for name, value := range map[string]string{
		"garbage":           "\x00\x01\x02",
		"no metadata line":  `{"name":"a.png","type":"image/png"}`,
		"bad metadata":      "{nope\n" + page,
		"html sold as png":  `{"name":"a.png","type":"image/png","created_ms":1}` + "\n" + page,
		"unclean name":      `{"name":"../a.html","type":"text/html; charset=utf-8","created_ms":1}` + "\n" + page,
		"type off the list": `{"name":"a.html","type":"text/html","created_ms":1}` + "\n" + page,
	} {
		id := media.NewID()
		raw.Set(ctx(t), s.MediaKey(id), value, time.Minute)
		if f, err := s.Get(ctx(t), id); domain.ErrorCode(err) != domain.ENOTFOUND {
			t.Errorf("%s: served %q %q, %v", name, f.Name, f.ContentType, err)
		}
	}
	// A key without an expiry would outlive every TTL: not served.
	id := media.NewID()
	raw.Set(ctx(t), s.MediaKey(id), `{"name":"a.html","type":"text/html; charset=utf-8","created_ms":1}`+"\n"+page, 0)
	if _, err := s.Get(ctx(t), id); domain.ErrorCode(err) != domain.ENOTFOUND {
		t.Errorf("a key without expiry: %v, want ENOTFOUND", err)
	}
}

// TestMediaRedisDown: with nothing listening, Put and Get fail quickly with
// an internal error (the handler's 503), never ENOTFOUND.
func TestMediaRedisDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s, err := redis.NewMediaStore("redis://"+addr+"/0", "", redis.MediaOptions{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.Put(c, media.File{Name: "a.png", Body: mediatest.PNG(2, 2)}); domain.ErrorCode(err) != domain.EINTERNAL {
		t.Errorf("Put with Redis down: %v", err)
	}
	if _, err := s.Get(c, media.NewID()); domain.ErrorCode(err) != domain.EINTERNAL {
		t.Errorf("Get with Redis down: %v", err)
	}
	if err := s.Ping(c); err == nil {
		t.Error("Ping with Redis down succeeded")
	}
	if _, err := redis.NewMediaStore("http://nope", "", redis.MediaOptions{}); err == nil {
		t.Error("a URL that is not Redis's was accepted")
	}
}

// TestMediaLinkFromAnotherInstance: the link one instance made is served
// over HTTP by another instance's handler, with a cache life within the
// file's.
func TestMediaLinkFromAnotherInstance(t *testing.T) {
	prefix := redistest.Prefix(t, redistest.Need(t))
	maker, server := newMediaStore(t, prefix, redis.MediaOptions{}), newMediaStore(t, prefix, redis.MediaOptions{})
	page := mediatest.Page()
	id, err := maker.Put(ctx(t), media.File{Name: "sales trend.html", Body: page})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	(&media.Handler{Store: server, Logger: quiet}).Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	resp, err := http.Get(media.URL(srv.URL, id, "sales trend.html"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	age, _ := strconv.Atoi(strings.TrimPrefix(resp.Header.Get("Cache-Control"), "private, max-age="))
	if resp.StatusCode != 200 || !bytes.Equal(body, page) || resp.Header.Get("Content-Type") != media.TypeHTML || age <= 0 || age > 3600 {
		t.Fatalf("GET from the other instance: %d, %d bytes, %q, %q", resp.StatusCode, len(body), resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"))
	}
}
