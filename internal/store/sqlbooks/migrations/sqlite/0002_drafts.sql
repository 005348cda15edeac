-- Order drafts as they were shown to the salesperson, awaiting ok, an
-- owner's approval, or cancellation. payload is the whole priced draft (JSON).
CREATE TABLE drafts (
    id          TEXT PRIMARY KEY,
    placed_by   TEXT NOT NULL,
    customer_id TEXT NOT NULL,
    status      TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    payload     TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    decided_by  TEXT NOT NULL DEFAULT '',
    decided_at  TEXT
);
CREATE INDEX drafts_placed_by ON drafts(placed_by, status, created_at);
CREATE INDEX drafts_status ON drafts(status);

-- Sequences such as the order number.
CREATE TABLE counters (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
INSERT INTO counters (name, value) VALUES ('order', 1000);
