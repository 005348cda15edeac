-- Inbound messages are claimed with a lease: a message whose claim ran out
-- with no reply saved (Munshi died while answering it) is taken over by a
-- retry or by the recovery job. Rows from before leases have none and count
-- as expired.
ALTER TABLE inbound_messages ADD COLUMN lease_until TEXT;
ALTER TABLE inbound_messages ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;
CREATE INDEX inbound_unanswered ON inbound_messages(lease_until) WHERE reply IS NULL;

-- Retention: inbound records and the audit log are swept by age.
CREATE INDEX inbound_received ON inbound_messages(received_at);
CREATE INDEX audit_log_at ON audit_log(at);

-- Unknown numbers keep no text at rest: the audit log has what it needs.
UPDATE inbound_messages SET body = '' WHERE sender NOT IN (SELECT phone FROM users);

-- The last day each unknown number was refused: one refusal a day, then
-- silence.
CREATE TABLE refusals (
    phone      TEXT PRIMARY KEY,
    day        TEXT NOT NULL,   -- YYYY-MM-DD in Munshi's time zone
    refused_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX refusals_at ON refusals(refused_at);
