-- A message refused as too long keeps only its start and its length as
-- sent: the refusal needs no more, and the rest is nobody's to keep.
ALTER TABLE inbound_messages ADD COLUMN chars INTEGER NOT NULL DEFAULT 0;
