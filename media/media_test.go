package media_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/clocktest"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/media"
	"github.com/munshi/munshi/media/mediatest"
)

func TestInProcessSuite(t *testing.T) {
	mediatest.Run(t, func(t *testing.T) mediatest.Backend {
		c := clocktest.At(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
		return mediatest.Backend{Store: media.NewInProcess(media.Options{Now: c.Now}), TTL: media.DefaultTTL, Advance: c.Advance}
	})
}

func put(t *testing.T, s media.Store, name string, body []byte) string {
	t.Helper()
	id, err := s.Put(context.Background(), media.File{Name: name, Body: body})
	if err != nil {
		t.Fatalf("Put %s: %v", name, err)
	}
	return id
}

func present(s media.Store, id string) bool {
	_, err := s.Get(context.Background(), id)
	return err == nil
}

// TestBudgetEvictsOldestFirst fills a small budget and checks that each
// new file pushes out the oldest ones, and only as many as it needs.
func TestBudgetEvictsOldestFirst(t *testing.T) {
	c := clocktest.At(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	s := media.NewInProcess(media.Options{Budget: 1000, Now: c.Now})
	var ids []string
	for i := range 4 {
		ids = append(ids, put(t, s, fmt.Sprintf("f%d.png", i), mediatest.Filled(".png", 250)))
		c.Advance(time.Second)
	}
	if n, b := s.Holding(); n != 4 || b != 1000 {
		t.Fatalf("holding %d files, %d bytes; want 4, 1000", n, b)
	}
	// 400 bytes more: the two oldest (500 bytes) must go, not one.
	ids = append(ids, put(t, s, "f4.png", mediatest.Filled(".png", 400)))
	for i, want := range []bool{false, false, true, true, true} {
		if present(s, ids[i]) != want {
			t.Errorf("file %d present %v, want %v", i, !want, want)
		}
	}
	if n, b := s.Holding(); n != 3 || b != 900 {
		t.Errorf("holding %d files, %d bytes; want 3, 900", n, b)
	}
	// A file of the whole budget leaves nothing else.
	last := put(t, s, "all.png", mediatest.Filled(".png", 1000))
	if n, b := s.Holding(); n != 1 || b != 1000 || !present(s, last) {
		t.Errorf("after a budget-sized file: %d files, %d bytes", n, b)
	}
	// One byte more than the budget is refused and evicts nothing.
	_, err := s.Put(context.Background(), media.File{Name: "huge.png", Body: mediatest.Filled(".png", 1001)})
	if domain.ErrorCode(err) != domain.EINVALID || !present(s, last) {
		t.Errorf("Put over the whole budget: %v; kept the last file %v", err, present(s, last))
	}
}

// TestEvictionIgnoresExpiryOrder: a file with a short TTL of its own that
// was stored last is still the newest, and survives eviction.
func TestEvictionIgnoresExpiryOrder(t *testing.T) {
	c := clocktest.At(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	s := media.NewInProcess(media.Options{Budget: 600, Now: c.Now})
	old := put(t, s, "old.png", mediatest.Filled(".png", 300))
	short, err := s.Put(context.Background(), media.File{Name: "short.png", Body: mediatest.Filled(".png", 300), Expires: c.Now().Add(time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	newest := put(t, s, "new.png", mediatest.Filled(".png", 300))
	if present(s, old) || !present(s, short) || !present(s, newest) {
		t.Fatalf("old %v short %v new %v; want only the oldest evicted", present(s, old), present(s, short), present(s, newest))
	}
	c.Advance(time.Minute)
	if present(s, short) || !present(s, newest) {
		t.Fatalf("after a minute: short %v new %v", present(s, short), present(s, newest))
	}
}

// TestExpiredFilesAreSwept: expired files free their bytes at the next Put
// or Get, without anyone asking for them.
func TestExpiredFilesAreSwept(t *testing.T) {
	c := clocktest.At(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	s := media.NewInProcess(media.Options{TTL: 10 * time.Minute, Now: c.Now})
	for i := range 5 {
		put(t, s, fmt.Sprintf("f%d.png", i), mediatest.Filled(".png", 100))
		c.Advance(time.Minute)
	}
	c.Advance(6 * time.Minute) // the first two (at 0 and 1 min) are past 10 min
	s.Get(context.Background(), media.NewID())
	if n, b := s.Holding(); n != 3 || b != 300 {
		t.Fatalf("after sweeping: %d files, %d bytes; want 3, 300", n, b)
	}
	c.Advance(time.Hour)
	put(t, s, "fresh.png", mediatest.Filled(".png", 100))
	if n, b := s.Holding(); n != 1 || b != 100 {
		t.Fatalf("after a Put an hour later: %d files, %d bytes; want 1, 100", n, b)
	}
}

// TestInProcessDoesNotSurviveRestart documents the embedded store's limit:
// a new store (a restarted Munshi) knows none of the old files.
func TestInProcessDoesNotSurviveRestart(t *testing.T) {
	id := put(t, media.NewInProcess(media.Options{}), "a.png", mediatest.PNG(4, 4))
	_, err := media.NewInProcess(media.Options{}).Get(context.Background(), id)
	if domain.ErrorCode(err) != domain.ENOTFOUND {
		t.Fatalf("Get on a new in-process store: %v, want ENOTFOUND", err)
	}
}

func TestDefaults(t *testing.T) {
	c := clocktest.At(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	s := media.NewInProcess(media.Options{Now: c.Now})
	id := put(t, s, "a.png", mediatest.PNG(4, 4))
	f, _ := s.Get(context.Background(), id)
	if !f.Created.Equal(c.Now()) || f.Expires.Sub(f.Created) != time.Hour {
		t.Errorf("created %v expires %v; want now and an hour on", f.Created, f.Expires)
	}
	// The default budget holds 256 MiB: 16 documents of 16 MB, not 17.
	big := mediatest.Filled(".xlsx", media.MaxDocumentBytes)
	for i := range 17 {
		put(t, s, fmt.Sprintf("d%d.xlsx", i), big)
	}
	if n, b := s.Holding(); n != 16 || b != 16*media.MaxDocumentBytes {
		t.Errorf("default budget holds %d files, %d bytes; want 16", n, b)
	}
}

func TestCleanName(t *testing.T) {
	good := map[string]string{
		"outstanding-2026-11-30.xlsx":       "outstanding-2026-11-30.xlsx",
		"Sales trend (Nov).PNG":             "Sales-trend-Nov.png",
		"../../etc/passwd.html":             "etc-passwd.html",
		`a"b;c\d.png`:                       "a-b-c-d.png",
		"बकाया.xlsx":                        "file.xlsx",
		"स्टॉक GC500.png":                   "GC500.png",
		".png":                              "file.png",
		"a\r\nContent-Type: x.png":          "a-Content-Type-x.png",
		"report.v2.final.xlsx":              "report-v2-final.xlsx",
		strings.Repeat("ab", 100) + ".html": strings.Repeat("ab", 40) + ".html",
	}
	for in, want := range good {
		got, err := media.CleanName(in)
		if err != nil || got != want {
			t.Errorf("CleanName(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "chart", "a.pdf", "a.png.exe", "a.htm", "a.png\x00", "x." + strings.Repeat("p", 1000)} {
		if got, err := media.CleanName(in); domain.ErrorCode(err) != domain.EINVALID || len(err.Error()) > 200 {
			t.Errorf("CleanName(%q) = %q, %v; want a short EINVALID", in, got, err)
		}
	}
}

func TestNewIDIsValidAndRandom(t *testing.T) {
	seen := map[string]bool{}
	counts := map[byte]int{}
	for range 2000 {
		id := media.NewID()
		if !media.ValidID(id) || seen[id] {
			t.Fatalf("NewID() = %q: valid %v, repeated %v", id, media.ValidID(id), seen[id])
		}
		seen[id] = true
		for i := 0; i < len(id); i++ {
			counts[id[i]]++
		}
	}
	// Every one of the 32 characters turns up (52,000 draws): the
	// alphabet is used in full, as the 130 bits need.
	if len(counts) != 32 {
		t.Fatalf("ids use %d distinct characters, want 32", len(counts))
	}
	for _, id := range mediatest.MalformedIDs {
		if media.ValidID(id) || media.CheckID(id) == nil {
			t.Errorf("ValidID(%q) = true", id)
		}
	}
}

func TestURL(t *testing.T) {
	id := media.NewID()
	cases := []struct{ base, name, want string }{
		{"https://munshi.example.com", "outstanding-2026-11-30.xlsx", "https://munshi.example.com/media/" + id + "/outstanding-2026-11-30.xlsx"},
		{"https://munshi.example.com/", "Sales trend.png", "https://munshi.example.com/media/" + id + "/Sales-trend.png"},
		{"https://example.com/munshi", "", "https://example.com/munshi/media/" + id},
		{"https://example.com", "evil.exe", "https://example.com/media/" + id},
	}
	for _, c := range cases {
		if got := media.URL(c.base, id, c.name); got != c.want {
			t.Errorf("URL(%q, id, %q) = %q, want %q", c.base, c.name, got, c.want)
		}
	}
}
