-- Messages held back because sending is impossible for a reason that is not
-- the message's own (bad credentials, a sender that is not set up): why, and
-- since when. They stay pending without using up attempts.
ALTER TABLE outbox ADD COLUMN held_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN held_since TEXT;

-- Who to warn when a message is given up for good, and what it was about.
ALTER TABLE outbox ADD COLUMN subject TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN tell_on_failure TEXT NOT NULL DEFAULT '';

CREATE INDEX outbox_held ON outbox(kind) WHERE status = 'pending' AND held_reason <> '';
