-- Indexes for the owners' questions (reports tools), sized for 10,000 SKUs
-- and 500,000 order lines.

-- The catalog page, by name; the products with nothing ready.
CREATE INDEX products_name ON products(name, sku);
CREATE INDEX products_empty ON products(sku) WHERE stock_ready <= 0;

-- "Who owes us money?": only the customers who owe, largest due first.
CREATE INDEX customers_dues ON customers(outstanding_paise DESC, id) WHERE outstanding_paise > 0;

-- The oldest unpaid bill: a customer's credit orders, newest first.
CREATE INDEX orders_credit ON orders(customer_id, created_at DESC, id DESC) WHERE payment_mode = 'credit';

-- Sales in a period and stock committed to open orders: orders by status
-- and date (with their amounts, for sales by customer or by day), and their
-- lines, without touching the tables.
CREATE INDEX orders_status_cover ON orders(status, created_at, id, customer_id, subtotal_paise, gst_paise, total_paise);
CREATE INDEX order_lines_cover ON order_lines(order_id, sku, qty, amount_paise, gst_paise);

-- Sales of one product.
CREATE INDEX order_lines_sku_cover ON order_lines(sku, order_id, qty, amount_paise, gst_paise);
