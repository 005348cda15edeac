-- A draft shown to a salesperson has its own reference, D-57, from the
-- 'draft' counter; the order counter moves only when an order is placed,
-- inside the commit, so the books' ORD numbers have no gaps. order_id is
-- the order a committed draft became. Drafts saved before this were
-- numbered ORD-… when shown: the committed ones became the order of their
-- own number, and the others keep it when they are placed.
ALTER TABLE drafts ADD COLUMN order_id TEXT NOT NULL DEFAULT '';
UPDATE drafts SET order_id = id WHERE status = 'committed';
CREATE UNIQUE INDEX drafts_order ON drafts(order_id) WHERE order_id <> '';
INSERT INTO counters (name, value) VALUES ('draft', 0);
