// Package media keeps the files Munshi generates for a chat — a PNG chart,
// an interactive HTML chart page, an .xlsx export — for a short time, and
// serves them at GET|HEAD /media/{id} and /media/{id}/{name}, the links
// Twilio fetches (without credentials) to deliver them on WhatsApp.
//
// It owns:
//
//   - File and the Store contract: Put refuses anything but the three
//     kinds, with their exact content types, and files over WhatsApp's
//     limits (images 5 MB, documents 16 MB); Get answers ENOTFOUND once a
//     file's TTL has ended;
//   - ids: 130 random bits from crypto/rand in base32, checked strictly
//     (length and alphabet) before any lookup, since the id is the only
//     secret a link carries;
//   - InProcess, the embedded Store: a byte budget evicting the oldest
//     files first, expiry by a clock tests can move. Its files do not
//     survive a restart, which is fine: they are links for Twilio to fetch
//     within minutes. With REDIS_URL set, internal/redis.MediaStore keeps
//     them in Redis so that any instance serves them and a restart loses
//     nothing;
//   - Handler: exact Content-Type and Content-Length, nosniff, no
//     referrer, Cache-Control never longer than the file lives, a download
//     name for .xlsx, a strict Content-Security-Policy for HTML pages;
//   - URL, the public link under MUNSHI_PUBLIC_URL.
//
// The shared test suite for every Store lives in media/mediatest.
//
// It imports internal/domain and golang.org/x/net/html (to hash a page's
// inline scripts for its CSP), and never a renderer (charts, Excel),
// Twilio, SQL or the Redis adapter: reports renders, media only keeps and
// serves bytes.
package media
