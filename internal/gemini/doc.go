// Package gemini adapts Google's Gemini API to Munshi's uses of a
// language model, each one GenerateContent call with a static system
// instruction:
//
//   - Classify, the intent router's last tier (intent.Classifier): one of
//     the intents and a confidence, enforced by a response schema;
//   - Extract, the order parser's fallback: the customer, payment and
//     lines as written, which orders.Parser.Resolve then checks against the
//     catalog and the customers;
//   - Step, one turn of the owners' question agent (reports.AgentModel),
//     with the business tools as function declarations;
//   - Narrate, the opening of the daily digest (digest.Narrator) from the
//     day's facts, which the digest checks number by number;
//   - Choose, which of the options a person's reply to a question means,
//     picked from an enum and checked again;
//   - Transcribe, a voice note heard as {"language","transcript"}: the
//     words as spoken, for the router to read like a typed message;
//   - ReadSlip, a photo of an order slip read into Extract's schema, for
//     orders.Parser.Resolve to check; a line it cannot read is one
//     "unreadable" line for Resolve to ask about;
//   - SuggestField, for munshi connect: which of Munshi's fields an ERP
//     column it could not place holds, from its name and a few masked
//     values; the draft marks the answer as a suggestion to review.
//
// The voice note or photo travels inline in the request (never stored
// here); the catalog and a photo's caption travel beside it as data.
//
// It owns the prompts, the response schemas, the per-call timeout inside
// the webhook's budget, one retry of transient failures, a circuit breaker,
// and the accounting of every call (Config.Recorder). It spends the
// per-message call budget and sends the conversation summary that the
// caller put on the context with internal/llmbudget; the summary rides in
// the request contents, never in the system instruction. genai types
// stop here: callers see domain, intent, orders and reports types only.
//
// Model output is data. This package validates it against the schema and
// returns it; it never approves, commits or sends anything, and holds no
// business state, so it must not import the store, the outbox, the webhook
// or another adapter. The API key goes in a request header and is scrubbed
// from every error.
package gemini
