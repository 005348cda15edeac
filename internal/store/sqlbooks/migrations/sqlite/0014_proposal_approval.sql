-- A payment that leaves an advance beyond the customer's bound waits for
-- an owner after its proposer's ok (pending_approval), and the owner
-- approves it (applied) or rejects it (rejected); decided_by is who moved
-- it last. SQLite cannot change a CHECK in place, so the table is rebuilt
-- with every row as it was, and its index recreated.
CREATE TABLE proposals_rebuilt (
    id          TEXT PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('delivery','cancellation','payment','receipt')),
    proposed_by TEXT NOT NULL,
    subject     TEXT NOT NULL DEFAULT '',      -- "ORD-1042", a customer id, a SKU list
    status      TEXT NOT NULL DEFAULT 'open'
                CHECK (status IN ('open','applied','dropped','replaced','pending_approval','rejected')),
    fingerprint TEXT NOT NULL,
    payload     TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    decided_at  TEXT,
    decided_by  TEXT NOT NULL DEFAULT ''
);

INSERT INTO proposals_rebuilt (id, kind, proposed_by, subject, status, fingerprint, payload, created_at, decided_at)
SELECT id, kind, proposed_by, subject, status, fingerprint, payload, created_at, decided_at FROM proposals;

DROP TABLE proposals;
ALTER TABLE proposals_rebuilt RENAME TO proposals;

CREATE INDEX proposals_by ON proposals(proposed_by, status, created_at);
