// Package mediatest is the test suite every media.Store must pass, run
// against the in-process store and against real Redis, so that both keep
// one behaviour: the three kinds with their exact content types, WhatsApp's
// size limits, names cleaned, ids strict, files gone after their TTL, and
// concurrent use. It also holds sample files and the /media benchmark.
package mediatest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/media"
)

// Backend is one store under test.
type Backend struct {
	Store media.Store
	// Peer is a second handle on the same files, as a second Munshi
	// instance would have; nil means Store.
	Peer media.Store
	// TTL is the store's own TTL.
	TTL time.Duration
	// Advance moves the store's clock forward. Nil for a store on real
	// time (Redis): expiry is then watched with short TTLs.
	Advance func(d time.Duration)
}

func (b Backend) peer() media.Store {
	if b.Peer != nil {
		return b.Peer
	}
	return b.Store
}

// Run runs the suite; newBackend is called once per subtest.
func Run(t *testing.T, newBackend func(t *testing.T) Backend) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, Backend)
	}{
		{"RoundTripEveryKind", testRoundTrip},
		{"ContentTypes", testContentTypes},
		{"SizeLimits", testSizeLimits},
		{"UnknownAndMalformedIDs", testUnknownIDs},
		{"Expiry", testExpiry},
		{"CallerExpiry", testCallerExpiry},
		{"PutCopiesTheBody", testPutCopies},
		{"IDsAreUniqueAndStrict", testIDs},
		{"ConcurrentPutGet", testConcurrent},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newBackend(t)) })
	}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// samples are one file of each kind, as reports makes them, with names
// that need cleaning.
func samples() []struct {
	name, stored, contentType string
	body                      []byte
} {
	return []struct {
		name, stored, contentType string
		body                      []byte
	}{
		{"Sales trend 30/11.png", "Sales-trend-30-11.png", media.TypePNG, PNG(32, 16)},
		{"बिक्री chart.HTML", "chart.html", media.TypeHTML, Page()},
		{"outstanding-2026-11-30.xlsx", "outstanding-2026-11-30.xlsx", media.TypeXLSX, XLSX(4096)},
	}
}

func testRoundTrip(t *testing.T, b Backend) {
	for _, s := range samples() {
		before := time.Now()
		id, err := b.Store.Put(ctx(t), media.File{Name: s.name, Body: s.body})
		if err != nil {
			t.Fatalf("Put %s: %v", s.name, err)
		}
		f, err := b.peer().Get(ctx(t), id)
		if err != nil {
			t.Fatalf("Get %s: %v", s.name, err)
		}
		if f.Name != s.stored || f.ContentType != s.contentType || !bytes.Equal(f.Body, s.body) {
			t.Errorf("Get %s = %q %q %d bytes; want %q %q %d bytes", s.name, f.Name, f.ContentType, len(f.Body), s.stored, s.contentType, len(s.body))
		}
		if life := f.Expires.Sub(f.Created); life <= 0 || life > b.TTL+time.Second {
			t.Errorf("%s lives %v from creation, want at most the TTL %v", s.name, life, b.TTL)
		}
		if b.Advance == nil && f.Created.Before(before.Add(-time.Second)) {
			t.Errorf("%s created %v, before Put was called (%v)", s.name, f.Created, before)
		}
	}
}

func testContentTypes(t *testing.T, b Backend) {
	png, page, xlsx := PNG(8, 8), Page(), XLSX(64)
	good := []media.File{
		{Name: "a.png", ContentType: media.TypePNG, Body: png},
		{Name: "a.html", ContentType: media.TypeHTML, Body: page},
		{Name: "a.xlsx", ContentType: media.TypeXLSX, Body: xlsx},
	}
	for _, f := range good {
		id, err := b.Store.Put(ctx(t), f)
		if err != nil {
			t.Fatalf("Put %s as %q: %v", f.Name, f.ContentType, err)
		}
		if got, err := b.peer().Get(ctx(t), id); err != nil || got.ContentType != f.ContentType {
			t.Errorf("Get %s = %q, %v", f.Name, got.ContentType, err)
		}
	}
	bad := []media.File{
		{Name: "a.png", ContentType: "image/jpeg", Body: png},
		{Name: "a.png", ContentType: "IMAGE/PNG", Body: png},
		{Name: "a.html", ContentType: "text/html", Body: page},
		{Name: "a.html", ContentType: "text/html; charset=iso-8859-1", Body: page},
		{Name: "a.png", ContentType: media.TypeXLSX, Body: xlsx},
		{Name: "a.xlsx", ContentType: media.TypePNG, Body: png},
		{Name: "a.pdf", Body: []byte("%PDF-1.7")},
		{Name: "a.exe", Body: []byte("MZ")},
		{Name: "a.svg", Body: []byte("<svg/>")},
		{Name: "no extension", Body: png},
		{Name: "", Body: png},
		{Name: "a.png", Body: page},                                 // HTML dressed as a PNG
		{Name: "a.xlsx", Body: page},                                // not a zip
		{Name: "a.html", Body: []byte("<p>\xff\xfe not UTF-8</p>")}, // the charset would lie
		{Name: "a.png", Body: nil},
		{Name: "a.png\x00.html", Body: png},
	}
	for _, f := range bad {
		id, err := b.Store.Put(ctx(t), f)
		if domain.ErrorCode(err) != domain.EINVALID {
			t.Errorf("Put %q as %q = %q, %v; want EINVALID", f.Name, f.ContentType, id, err)
		}
	}
}

func testSizeLimits(t *testing.T, b Backend) {
	cases := []struct {
		ext   string
		limit int
		say   string
	}{
		{".png", media.MaxImageBytes, "images up to 5 MB"},
		{".xlsx", media.MaxDocumentBytes, "documents up to 16 MB"},
		{".html", media.MaxDocumentBytes, "documents up to 16 MB"},
	}
	for _, c := range cases {
		_, err := b.Store.Put(ctx(t), media.File{Name: "big" + c.ext, Body: Filled(c.ext, c.limit+1)})
		if domain.ErrorCode(err) != domain.EINVALID || !strings.Contains(err.Error(), c.say) {
			t.Errorf("Put of a %s one byte over the limit: %v; want EINVALID saying %q", c.ext, err, c.say)
		}
	}
	// At the limit exactly a file is kept (one of each size class).
	for _, c := range cases[:2] {
		body := Filled(c.ext, c.limit)
		id, err := b.Store.Put(ctx(t), media.File{Name: "full" + c.ext, Body: body})
		if err != nil {
			t.Fatalf("Put of a %s at the limit: %v", c.ext, err)
		}
		if f, err := b.peer().Get(ctx(t), id); err != nil || len(f.Body) != c.limit {
			t.Errorf("Get of a %s at the limit: %d bytes, %v", c.ext, len(f.Body), err)
		}
	}
}

// MalformedIDs are strings that must never be looked up.
var MalformedIDs = []string{
	"", "A", strings.Repeat("A", media.IDLength-1), strings.Repeat("A", media.IDLength+1),
	strings.Repeat("a", media.IDLength), strings.Repeat("A", media.IDLength-1) + "1", strings.Repeat("A", media.IDLength-1) + "8",
	strings.Repeat("A", media.IDLength-2) + "..", strings.Repeat("A", media.IDLength-1) + "/", strings.Repeat("A", media.IDLength-1) + "*",
	strings.Repeat("A", media.IDLength-1) + "\x00", strings.Repeat("A", media.IDLength-3) + "अ", "../../etc/passwd", "%2e%2e%2f",
}

func testUnknownIDs(t *testing.T, b Backend) {
	if _, err := b.Store.Put(ctx(t), media.File{Name: "a.png", Body: PNG(4, 4)}); err != nil {
		t.Fatal(err)
	}
	_, err := b.Store.Get(ctx(t), media.NewID())
	if domain.ErrorCode(err) != domain.ENOTFOUND || !errors.Is(err, media.ErrNotFound) {
		t.Errorf("Get of an unknown id: %v, want ENOTFOUND", err)
	}
	for _, id := range MalformedIDs {
		if f, err := b.Store.Get(ctx(t), id); domain.ErrorCode(err) != domain.EINVALID || f.Body != nil {
			t.Errorf("Get(%q) = %d bytes, %v; want EINVALID", id, len(f.Body), err)
		}
	}
}

// WaitGone waits for id to be gone from s, until deadline.
func WaitGone(t *testing.T, s media.Store, id string, deadline time.Duration) {
	t.Helper()
	end := time.Now().Add(deadline)
	for {
		_, err := s.Get(ctx(t), id)
		if domain.ErrorCode(err) == domain.ENOTFOUND {
			return
		}
		if err != nil {
			t.Fatalf("Get while waiting for expiry: %v", err)
		}
		if time.Now().After(end) {
			t.Fatalf("file still served %v after Put", deadline)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// CheckServed checks that id is served, unless its time is already
// up by the real clock (a slow machine).
func CheckServed(t *testing.T, s media.Store, id string, expires time.Time) {
	t.Helper()
	_, err := s.Get(ctx(t), id)
	if err != nil && time.Now().Before(expires) {
		t.Fatalf("Get before expiry: %v", err)
	}
}

func testExpiry(t *testing.T, b Backend) {
	if b.Advance != nil {
		id, err := b.Store.Put(ctx(t), media.File{Name: "a.png", Body: PNG(4, 4)})
		if err != nil {
			t.Fatal(err)
		}
		b.Advance(b.TTL - time.Millisecond)
		if _, err := b.peer().Get(ctx(t), id); err != nil {
			t.Fatalf("Get 1ms before the TTL ends: %v", err)
		}
		b.Advance(time.Millisecond)
		if _, err := b.peer().Get(ctx(t), id); domain.ErrorCode(err) != domain.ENOTFOUND {
			t.Fatalf("Get when the TTL ends: %v, want ENOTFOUND", err)
		}
		return
	}
	// Real time: a file of one second's life, polled until it is gone.
	expires := time.Now().Add(time.Second)
	id, err := b.Store.Put(ctx(t), media.File{Name: "a.png", Body: PNG(4, 4), Expires: expires})
	if err != nil {
		t.Fatal(err)
	}
	CheckServed(t, b.peer(), id, expires)
	WaitGone(t, b.peer(), id, 15*time.Second)
	WaitGone(t, b.Store, id, time.Second)
}

func testCallerExpiry(t *testing.T, b Backend) {
	now := time.Now()
	if b.Advance != nil {
		// The store's own clock, learnt from a file.
		id, err := b.Store.Put(ctx(t), media.File{Name: "clock.png", Body: PNG(4, 4)})
		if err != nil {
			t.Fatal(err)
		}
		f, _ := b.Store.Get(ctx(t), id)
		now = f.Created
	}
	if _, err := b.Store.Put(ctx(t), media.File{Name: "late.png", Body: PNG(4, 4), Expires: now.Add(-time.Second)}); domain.ErrorCode(err) != domain.EINVALID {
		t.Errorf("Put of an already expired file: %v, want EINVALID", err)
	}
	want := now.Add(10 * time.Minute)
	id, err := b.Store.Put(ctx(t), media.File{Name: "short.png", Body: PNG(4, 4), Expires: want})
	if err != nil {
		t.Fatal(err)
	}
	f, err := b.peer().Get(ctx(t), id)
	if err != nil {
		t.Fatal(err)
	}
	if d := f.Expires.Sub(want); d > time.Second || d < -time.Second {
		t.Errorf("Expires = %v, want about %v", f.Expires, want)
	}
	if b.Advance != nil {
		b.Advance(10 * time.Minute)
		if _, err := b.Store.Get(ctx(t), id); domain.ErrorCode(err) != domain.ENOTFOUND {
			t.Errorf("Get after the caller's expiry: %v, want ENOTFOUND", err)
		}
	}
}

func testPutCopies(t *testing.T, b Backend) {
	body := PNG(16, 16)
	keep := bytes.Clone(body)
	id, err := b.Store.Put(ctx(t), media.File{Name: "a.png", Body: body})
	if err != nil {
		t.Fatal(err)
	}
	for i := range body {
		body[i] = 0 // the caller reuses its buffer
	}
	if f, err := b.peer().Get(ctx(t), id); err != nil || !bytes.Equal(f.Body, keep) {
		t.Fatalf("Get after the caller changed its buffer: %v, changed %v", err, !bytes.Equal(f.Body, keep))
	}
}

func testIDs(t *testing.T, b Backend) {
	seen := map[string]bool{}
	for range 100 {
		id, err := b.Store.Put(ctx(t), media.File{Name: "a.png", Body: PNG(2, 2)})
		if err != nil {
			t.Fatal(err)
		}
		if !media.ValidID(id) || seen[id] {
			t.Fatalf("id %q: valid %v, repeated %v", id, media.ValidID(id), seen[id])
		}
		seen[id] = true
	}
}

// testConcurrent has writers and readers on both handles at once: every
// reader gets exactly the bytes stored under its id.
func testConcurrent(t *testing.T, b Backend) {
	const workers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			put, get := b.Store, b.peer()
			if w%2 == 1 {
				put, get = get, put
			}
			for i := range each {
				body := append(Filled(".png", 64), fmt.Sprintf("%d/%d", w, i)...)
				id, err := put.Put(ctx(t), media.File{Name: fmt.Sprintf("w%d-%d.png", w, i), Body: body})
				if err != nil {
					errs <- err
					continue
				}
				f, err := get.Get(ctx(t), id)
				if err == nil && (!bytes.Equal(f.Body, body) || f.Name != fmt.Sprintf("w%d-%d.png", w, i)) {
					err = fmt.Errorf("id %s… served %s, not the file stored under it", id[:4], f.Name)
				}
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
