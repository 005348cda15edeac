// Package redis is Munshi's Redis adapter, used when REDIS_URL is set so
// that several Munshi instances share state: the conversation memory (a
// memory.Store over github.com/redis/go-redis/v9, with ordering and
// MessageSid dedupe) and generated files (a media.Store, MediaStore).
//
// Key layout, all under a prefix (default "munshi:"), with the phone in a
// hash tag so that one person's keys share a cluster slot:
//
//	{prefix}conv:{PHONE}   string  the conversation in memory's stored form
//	                               (compact JSON, at most memory.MaxBytes)
//	{prefix}lockq:{PHONE}  list    tickets waiting for the person's lock,
//	                               in arrival order; the head holds it
//	{prefix}lockt:{PHONE}  hash    ticket → lease expiry (Unix ms, Redis time)
//	{prefix}seen:{SID}     string  who has a MessageSid: "c"+phone while an
//	                               instance holds its claim, "a"+phone once
//	                               it is answered
//	{prefix}media:{ID}     string  a generated file: one line of JSON
//	                               metadata, then its bytes
//
// Every key is written with a TTL: conversations memory.TTL after the last
// message, a message id's claim its lease (so that the claim of a crashed
// instance runs out and a retry takes it over), an answered message id
// memory.SeenTTL, lock keys one lock lifetime, a file its media TTL (so it
// is gone after it, across restarts too).
//
// Append is a read, the shared fold in Go (memory.Apply), and a Lua
// compare-and-set that writes only if the conversation is still what was
// read (retrying otherwise): the fold rules live once, in Go, for both
// stores, and Redis still sees an atomic read-modify-write. The lock is a
// ticket queue with leases, as Rasa's lock store: a holder renews its lease
// while it works, so a crashed instance blocks the person for at most one
// lifetime.
//
// It imports memory, media and internal/domain; no other Munshi package.
package redis
