-- The books after an order: deliveries, cancellations, payments and goods
-- received are proposed from the chat, shown as a summary, and applied on
-- "ok". A proposal is kept like a draft: who made it, what it changes
-- (payload, JSON), the fingerprint of the books it was judged against, and
-- whether it was applied, dropped or replaced.
CREATE TABLE proposals (
    id          TEXT PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('delivery','cancellation','payment','receipt')),
    proposed_by TEXT NOT NULL,
    subject     TEXT NOT NULL DEFAULT '',      -- "ORD-1042", a customer id, a SKU list
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','applied','dropped','replaced')),
    fingerprint TEXT NOT NULL,
    payload     TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    decided_at  TEXT
);
CREATE INDEX proposals_by ON proposals(proposed_by, status, created_at);
INSERT INTO counters (name, value) VALUES ('proposal', 0);

-- Where a row came from: 'munshi' (the chat), 'import' (history files),
-- 'demo'. Imported history feeds reports but moves neither stock nor dues.
ALTER TABLE orders ADD COLUMN source TEXT NOT NULL DEFAULT 'munshi';
ALTER TABLE orders ADD COLUMN cancelled_at TEXT;
ALTER TABLE orders ADD COLUMN note TEXT NOT NULL DEFAULT '';
ALTER TABLE payments ADD COLUMN source TEXT NOT NULL DEFAULT 'munshi';
ALTER TABLE payments ADD COLUMN recorded_by TEXT NOT NULL DEFAULT '';

-- A reference is recorded once per customer, whatever its case.
CREATE UNIQUE INDEX payments_reference ON payments(customer_id, upper(reference)) WHERE reference <> '';
CREATE INDEX payments_received ON payments(received_at);
CREATE INDEX orders_placed_by ON orders(placed_by, created_at);
