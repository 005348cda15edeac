// Package digest makes Munshi's 7 am digest: one day (D, a date in the
// business's zone, MUNSHI_TZ) against a normal day of its kind, the
// customers to call, what is running out and what waits — as a WhatsApp
// brief for owners, a dues brief for accounts, and an email of each.
//
// Every figure comes from the context engine (Build), deterministic code
// over the books; a language model may at most phrase the opening, and
// only with numbers that are in the facts. Compose is the one call the
// delivery side needs: it returns an Edition (the date, the headline for
// the WhatsApp template, both briefs, both mails).
//
// # The definitions
//
// Sales are orders committed or delivered (never cancelled), of any
// source (the chat, imported history, the demo), created on the day in
// the business's zone: revenue before GST, GST, orders, customers.
//
//   - Baseline: the same weekday in each of the 13 weeks before D (D−7 …
//     D−91), a day with no sales counting as zero; its mean, lowest and
//     highest; D's change against the mean in whole percent.
//   - Week to date: Monday … D against the same days a week before. Month
//     to date: the 1st … D against the same dates of last month (a date
//     last month lacks, such as 31 March against February, is left out).
//   - no_order: days since the customer's last order exceed 1.5 × the
//     median gap between their order days over the 13 weeks to D, when
//     they placed at least 3 orders on at least 2 days; otherwise their
//     segment's cadence (Options.Cadence; DefaultCadence: dealer 7,
//     retailer 14, horeca 7; others OtherCadence, 14 days).
//   - surge: D's largest order is worth more than twice their mean order
//     over the 13 weeks before D (D−91 … D−1).
//   - drop: their weekly average over the last 4 weeks (D−27 … D) is below
//     half their weekly average over the 9 weeks before (D−90 … D−28).
//   - payment_received: payments received on D.
//   - credit_risk: outstanding above 90% of the credit limit, or the
//     oldest unpaid bill (first in, first out, as reports.Due reads it)
//     older than 60 days on D. A customer without a limit is judged by the
//     bill's age alone. Dues are as they stand now, not as of D.
//   - Stock: products with nothing available (ready − committed ≤ 0), and
//     products whose available stock lasts fewer than 7 days at their
//     average daily sales of D−27 … D, with what is in production; most
//     sold first.
//   - Waiting: drafts waiting for an owner's approval, and committed orders
//     created before D−2 (over 3 days old when D ends) and not delivered;
//     imported history is not work waiting.
//
// Money is integer paise throughout; percentages are rounded half away
// from zero.
//
// # The brief
//
// The owners' brief (under MaxBriefChars, counted as WhatsApp counts):
// the headline against the baseline and the week and month so far (or the
// model's sentences), the day's big orders and payments, then at most
// three actions — call a customer who stopped or slowed, chase one past
// their credit — one per customer, the most valuable of each kind first
// (money at stake: orders missed, four weeks' shortfall, the amount due),
// then a line each for stock and waiting work. What does not fit is
// shortened, least useful first. The accounts' brief is the dues part:
// payments received, the total due, the credit risks.
//
// The owners' mail holds every table, the 13-week chart as an inline PNG
// (reports/chart) and the day's sales file (reports/excel) attached; the
// accounts' mail holds the dues tables.
//
// # The narrative
//
// A Narrator (internal/gemini's Client) gets FactsJSON after the static
// NarrativePrompt and writes at most three sentences. CheckNarrative
// refuses a text with a number not in the facts (reports.Grounded, the
// question agent's check), more than three sentences, or markup; a model
// that fails or does not answer within Options.NarrativeTimeout leaves the
// deterministic opening, which reads well on its own.
//
// Editions hands Compose's edition to the delivery (internal/briefing)
// in the shape it sends and keeps, with each brief's headline figures
// (OwnerFigures, AccountsFigures) as the reader sees them, so that the
// delivery can say what reads differently when a day is asked for after
// the books changed.
//
// It reads the books only through Books, which every store implements,
// and must not import the store, send anything, or keep state; it imports
// internal/briefing only for the shape of an edition.
package digest
