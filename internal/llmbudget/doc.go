// Package llmbudget carries, on a context, what one inbound message allows
// the language model: how many requests it may still make (retries and the
// agent's steps included, across every purpose) and the summary of the
// conversation so far that each request takes along.
//
// It knows no vendor: the conversation sets the budget and the summary, and
// whichever model adapter is wired in (internal/gemini today) spends the
// budget and reads the summary. It must not import an adapter, the store or
// any domain package.
package llmbudget
