-- Conversations handed over to the office (internal/handoff). A person has
-- at most one open handoff: the partial unique index keeps it so whatever
-- the number of instances. The handle people write, "H-17", is the id.
-- office is the phones it went to, '|'-separated: only they may answer.
-- Times are UTC text in the store's format.
CREATE TABLE handoffs (
    id                   INTEGER PRIMARY KEY,
    person               TEXT NOT NULL,
    person_name          TEXT NOT NULL DEFAULT '',
    person_role          TEXT NOT NULL DEFAULT '',
    reason               TEXT NOT NULL CHECK (reason IN ('asked','not_understood','gave_up','dispute')),
    status               TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','closed')),
    office               TEXT NOT NULL DEFAULT '',
    opened_at            TEXT NOT NULL,
    last_office_reply_at TEXT,
    reminded_at          TEXT,
    closed_at            TEXT,
    closed_by            TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX handoffs_one_open ON handoffs(person) WHERE status = 'open';
CREATE INDEX handoffs_unanswered ON handoffs(opened_at) WHERE status = 'open' AND last_office_reply_at IS NULL AND reminded_at IS NULL;

-- The messages of a handoff in order: the conversation before it (side
-- 'munshi' or 'person'), then what was relayed each way.
CREATE TABLE handoff_messages (
    id         INTEGER PRIMARY KEY,
    handoff_id INTEGER NOT NULL REFERENCES handoffs(id),
    at         TEXT NOT NULL,
    side       TEXT NOT NULL CHECK (side IN ('person','office','munshi')),
    sender     TEXT NOT NULL DEFAULT '',
    body       TEXT NOT NULL
);
CREATE INDEX handoff_messages_of ON handoff_messages(handoff_id, id);
