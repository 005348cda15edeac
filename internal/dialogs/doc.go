// Package dialogs scores scripted conversations by the end state they
// leave in the books: `munshi eval --dialogs FILE.jsonl`.
//
// It owns three things:
//
//   - the dialog file (FORMAT.md is its contract): Read parses and checks
//     it, naming every bad line by its number, and Seed.Check checks what
//     the dialogs name (roles, customers, SKUs, orders) against the seed
//     they run on;
//   - the snapshot: Take reads from the books what a conversation may
//     have changed — orders placed and drafts sent to an owner for
//     approval (with their lines and payment mode), payments recorded,
//     deliveries and cancellations, stock received — through the narrow
//     Books interface it declares, which the store satisfies;
//   - the scoring: Score judges one conversation from the snapshot before
//     it and the snapshot and reply after each turn, and a Report adds the
//     results up (success, turns to success, wrong entries, LLM calls per
//     100 messages) and prints them as text or JSON.
//
// Running a conversation (a throw-away database seeded from CSV files,
// the app wired as serve wires it, a fixed clock) is cmd/munshi's: this
// package never opens a database, sends a message or reads the clock.
//
// It imports internal/domain and the packages whose types the store's
// methods speak (orders for drafts, reports for order states,
// reports/digest for payment sums, internal/audit for entries). It must
// not import a store engine, cmd, or any adapter of an outside system.
package dialogs
