-- The outbox carries any kind of side effect: a kind is a sender, and a new
-- one (Sheets writes) must not need a new schema. SQLite cannot drop a
-- CHECK in place, so the table is rebuilt with every row and column as it
-- was, and its indexes recreated. An effect still needs some kind.
CREATE TABLE outbox_rebuilt (
    id              INTEGER PRIMARY KEY,
    kind            TEXT NOT NULL CHECK (kind <> ''),
    recipient       TEXT NOT NULL,
    payload         TEXT NOT NULL,      -- the sender's JSON
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','sent','failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    lease_until     TEXT,
    last_error      TEXT NOT NULL DEFAULT '',
    provider_id     TEXT NOT NULL DEFAULT '',
    delivery_status TEXT NOT NULL DEFAULT '',
    created_at      TEXT NOT NULL,
    sent_at         TEXT,
    held_reason     TEXT NOT NULL DEFAULT '',
    held_since      TEXT,
    subject         TEXT NOT NULL DEFAULT '',   -- what it is about, "ORD-1042"
    tell_on_failure TEXT NOT NULL DEFAULT ''
);

INSERT INTO outbox_rebuilt (id, kind, recipient, payload, status, attempts, next_attempt_at, lease_until, last_error,
    provider_id, delivery_status, created_at, sent_at, held_reason, held_since, subject, tell_on_failure)
SELECT id, kind, recipient, payload, status, attempts, next_attempt_at, lease_until, last_error,
    provider_id, delivery_status, created_at, sent_at, held_reason, held_since, subject, tell_on_failure
FROM outbox;

DROP TABLE outbox;
ALTER TABLE outbox_rebuilt RENAME TO outbox;

CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
CREATE INDEX outbox_provider ON outbox(provider_id) WHERE provider_id <> '';
CREATE INDEX outbox_held ON outbox(kind) WHERE status = 'pending' AND held_reason <> '';
