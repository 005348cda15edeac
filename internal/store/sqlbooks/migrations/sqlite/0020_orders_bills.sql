-- Dues are dated by walking a customer's bills newest first: credit
-- orders and imported ones. The walk reads this index alone, in its
-- order, where the partial index on credit orders could serve neither
-- the imported bills nor the order without a sort.
DROP INDEX orders_credit;
CREATE INDEX orders_bills ON orders(customer_id, created_at DESC, id DESC, total_paise, status, payment_mode, source);
