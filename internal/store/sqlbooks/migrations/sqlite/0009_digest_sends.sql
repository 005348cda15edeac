-- Each delivery of the daily digest (the digest of a date, to a phone or an
-- address, by a channel) is claimed here in the same transaction as the
-- outbox effect it enqueues, so that several instances, a restart or a
-- manual send never send it twice. A brief WhatsApp would not take (the
-- recipient had not written in 24 hours) is held here until they write.
CREATE TABLE digest_sends (
    digest_date  TEXT NOT NULL,   -- YYYY-MM-DD in MUNSHI_TZ: the day the digest is about
    recipient    TEXT NOT NULL,   -- E.164 phone or email address
    channel      TEXT NOT NULL CHECK (channel IN ('whatsapp','email')),
    status       TEXT NOT NULL CHECK (status IN ('sent','held','released')),
    held_kind    TEXT NOT NULL DEFAULT '',
    held_payload TEXT NOT NULL DEFAULT '',
    held_about   TEXT NOT NULL DEFAULT '',
    claimed_at   TEXT NOT NULL,
    released_at  TEXT,
    PRIMARY KEY (digest_date, recipient, channel)
) WITHOUT ROWID;
CREATE INDEX digest_sends_held ON digest_sends(recipient, claimed_at) WHERE status = 'held';

-- When a person last wrote: WhatsApp's 24-hour window.
CREATE INDEX inbound_sender ON inbound_messages(sender, received_at);
