package redis

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/media"
)

// MediaStore is media.Store over Redis, used when REDIS_URL is set: a file
// made on one Munshi instance is served by any other, and survives a
// restart until its TTL ends.
//
// Each file is one string key, {prefix}media:{ID}, written with SET NX PX
// so that Redis's own expiry removes it when its time is up, on every
// instance and across restarts. The value is a line of JSON (name, content
// type, creation time) then the body; Get reads it with the key's PTTL,
// from which the file's Expires is computed on the reader's clock. What is
// read back is checked again (media.Check) before it is served: Redis is
// shared, and Munshi serves only what it would have stored.
type MediaStore struct {
	c      *goredis.Client
	prefix string
	ttl    time.Duration
	log    *slog.Logger
}

// MediaOptions tune a MediaStore. The zero value is the production setting.
type MediaOptions struct {
	// TTL is how long a file lives when Put is not told (default
	// media.DefaultTTL; MUNSHI_MEDIA_TTL).
	TTL time.Duration
	// IOTimeout bounds one read or write (default 5s: a 16 MB document
	// over a slow link, not the 500ms of conversation memory);
	// DialTimeout one connection attempt (default 1s).
	IOTimeout, DialTimeout time.Duration
	// PoolSize is the most connections kept (default go-redis's).
	PoolSize int
	Logger   *slog.Logger
}

var _ media.Store = (*MediaStore)(nil)

// NewMediaStore connects lazily to the Redis at url, as New does, with
// its own connections (their timeouts fit files, not conversations).
// prefix "" means DefaultPrefix.
func NewMediaStore(url, prefix string, opts MediaOptions) (*MediaStore, error) {
	if opts.IOTimeout <= 0 {
		opts.IOTimeout = 5 * time.Second
	}
	s, err := New(url, prefix, Options{IOTimeout: opts.IOTimeout, DialTimeout: opts.DialTimeout, PoolSize: opts.PoolSize, Logger: opts.Logger})
	if err != nil {
		return nil, err
	}
	return &MediaStore{c: s.c, prefix: s.prefix, ttl: opts.TTL, log: s.log}, nil
}

// Close closes the connections.
func (s *MediaStore) Close() error { return s.c.Close() }

// Ping checks that Redis answers.
func (s *MediaStore) Ping(ctx context.Context) error {
	if err := s.c.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("redis: ping: %w", err)
	}
	return nil
}

// MediaKey returns the key of the file stored under id, for tests and
// operators.
func (s *MediaStore) MediaKey(id string) string { return s.prefix + "media:" + id }

// mediaHead is the metadata line in front of a stored file's body.
type mediaHead struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Created int64  `json:"created_ms"`
}

// Put checks f (media.Prepare) and stores it under a new id until it
// expires.
func (s *MediaStore) Put(ctx context.Context, f media.File) (string, error) {
	now := time.Now()
	f, err := media.Prepare(f, now, s.ttl)
	if err != nil {
		return "", err
	}
	head, _ := json.Marshal(mediaHead{Name: f.Name, Type: f.ContentType, Created: f.Created.UnixMilli()})
	value := make([]byte, 0, len(head)+1+len(f.Body))
	value = append(append(append(value, head...), '\n'), f.Body...)
	// PX counts from now, not from f.Created: Prepare's checks took time.
	life := time.Until(f.Expires).Round(time.Millisecond)
	if life < time.Millisecond {
		return "", domain.Errorf(domain.EINVALID, "media: %s would expire before it is stored", f.Name)
	}
	for range 3 { // NX: a repeated id (never, with 130 bits) must not overwrite a file
		id := media.NewID()
		stored, err := s.c.SetArgs(ctx, s.MediaKey(id), value, goredis.SetArgs{Mode: "NX", TTL: life}).Result()
		if err != nil && !errors.Is(err, goredis.Nil) {
			return "", fmt.Errorf("redis: unable to store a media file: %w", err)
		}
		if stored == "OK" {
			return id, nil
		}
	}
	return "", fmt.Errorf("redis: unable to store a media file: no free id")
}

// Get returns the file stored under id, with Expires from the key's PTTL.
func (s *MediaStore) Get(ctx context.Context, id string) (media.File, error) {
	if err := media.CheckID(id); err != nil {
		return media.File{}, err
	}
	key := s.MediaKey(id)
	pipe := s.c.Pipeline()
	get, pttl := pipe.Get(ctx, key), pipe.PTTL(ctx, key)
	now := time.Now()
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, goredis.Nil) {
		return media.File{}, fmt.Errorf("redis: unable to read a media file: %w", err)
	}
	value, err := get.Bytes()
	left := pttl.Val()
	if errors.Is(err, goredis.Nil) || left <= 0 { // gone, or (not Munshi's doing) no expiry
		return media.File{}, media.ErrNotFound
	}
	f, err := decodeMedia(value)
	if err == nil {
		err = media.Check(f)
	}
	if err != nil {
		s.log.WarnContext(ctx, "redis: a stored media file is unreadable; not serving it", "err", err)
		return media.File{}, media.ErrNotFound
	}
	f.Expires = now.Add(left)
	return f, nil
}

func decodeMedia(value []byte) (media.File, error) {
	line, body, ok := bytes.Cut(value, []byte{'\n'})
	var h mediaHead
	if !ok {
		return media.File{}, errors.New("no metadata line")
	}
	if err := json.Unmarshal(line, &h); err != nil {
		return media.File{}, fmt.Errorf("metadata: %w", err)
	}
	return media.File{Name: h.Name, ContentType: h.Type, Body: body, Created: time.UnixMilli(h.Created)}, nil
}
