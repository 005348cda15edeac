// Package memory is Munshi's conversation memory: what a person and Munshi
// said recently, so that "uska stock", "their outstanding", "same order for
// Sharma ji" or "cancel that" mean something.
//
// It owns:
//
//   - the Store contract, keyed by the person's phone: the last Window
//     turns kept in full (both directions); older turns folded into a
//     structured Summary (what was asked, which tools answered, the
//     customers and products in play, the last draft, the key rows of the
//     last result), never plain truncated text; everything expires TTL
//     after the last message; the stored form is bounded to MaxBytes;
//   - per-conversation ordering: Lock admits one message of a person at a
//     time, first come first served, bounded by the caller's context;
//   - cross-instance MessageSid dedupe (Seen, Answered): a claim with a
//     lease, bound to the sender, so that the claim of an instance that
//     died runs out and another takes the message over; then an answered
//     mark. The database stays the record;
//   - InProcess, the embedded Store, and Resilient, which wraps a shared
//     Store (Redis) so that Munshi keeps answering, without memory, when it
//     is down, and recovers by itself;
//   - Resolve, the deterministic reading of follow-ups against memory, and
//     Conversation.Context, the summary the LLM tier receives in the request
//     suffix (never in the system prompt);
//   - Scrub: tokens, keys and passwords never reach memory.
//
// The shared test suite for every Store lives in memory/memorytest.
//
// It imports internal/domain and intent (for the normalised message), and
// never Twilio, SQL, webhook, orders or any vendor package: the Redis
// adapter lives in internal/redis.
package memory
