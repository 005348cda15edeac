-- A short delivery is history, not an edit: a line keeps the quantity
-- ordered (qty), and short_qty is what of it did not reach the customer,
-- 0 until a delivery says otherwise. What was delivered, and counts as
-- sold, is qty - short_qty; amount_paise and gst_paise are what was billed
-- for it. Lines delivered short before this were rewritten to what was
-- delivered (and those delivered not at all removed), so theirs stays 0.
ALTER TABLE order_lines ADD COLUMN short_qty INTEGER NOT NULL DEFAULT 0 CHECK (short_qty >= 0 AND short_qty <= qty);

-- The sales and stock questions read lines from covering indexes; they
-- now read short_qty too.
DROP INDEX order_lines_cover;
CREATE INDEX order_lines_cover ON order_lines(order_id, sku, qty, short_qty, amount_paise, gst_paise);
DROP INDEX order_lines_sku_cover;
CREATE INDEX order_lines_sku_cover ON order_lines(sku, order_id, qty, short_qty, amount_paise, gst_paise);
