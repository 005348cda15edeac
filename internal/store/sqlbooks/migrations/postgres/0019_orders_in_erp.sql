-- An order taken in the chat that the ERP later shows as its own (the
-- same customer and lines, within the settle window) names that order in
-- in_erp: the ERP's copy is the one sales count, so the sale counts once.
ALTER TABLE orders ADD COLUMN in_erp text COLLATE "C" NOT NULL DEFAULT '';
CREATE INDEX orders_in_erp ON orders(in_erp) WHERE in_erp <> '';
-- Sales read in_erp on every order they sum: the covering index of the
-- sales queries carries it, so they stay index-only.
DROP INDEX orders_status_cover;
CREATE INDEX orders_status_cover ON orders(status, created_at, id, customer_id, subtotal_paise, gst_paise, total_paise, in_erp);
