-- The test ERP: one company's books as a small legacy ERP keeps them.
-- Amounts are text, as decimals come; dates are text, ERP-style.
CREATE TABLE Items (ItemCode TEXT PRIMARY KEY, ItemName TEXT, ShortName TEXT, UOM TEXT, Rate TEXT,
    GSTPct NUMERIC, QtyOnHand INTEGER, QtyInProcess INTEGER, Active INTEGER NOT NULL DEFAULT 1);
CREATE TABLE Parties (PartyCode TEXT PRIMARY KEY, PartyName TEXT, Mobile TEXT, Segment TEXT,
    CreditLimit TEXT, Balance TEXT, PayModes TEXT);
CREATE TABLE Bills (BillNo TEXT PRIMARY KEY, PartyCode TEXT, BillDate TEXT, Amount TEXT, Balance TEXT);
CREATE TABLE SalesLines (OrderNo TEXT, LineNo INTEGER, OrderDate TEXT, PartyCode TEXT, ItemCode TEXT,
    Qty INTEGER, Rate TEXT, GST TEXT, Status INTEGER, ModifiedOn TEXT, PRIMARY KEY (OrderNo, LineNo));
CREATE TABLE MoneyReceipts (RcptNo TEXT PRIMARY KEY, RcptDate TEXT, PartyCode TEXT, Amount TEXT, Mode TEXT);
CREATE TABLE GRN (GRNNo TEXT PRIMARY KEY, GRNDate TEXT, ItemCode TEXT, Qty INTEGER);

INSERT INTO Items VALUES
  ('GC500', 'Glass  Cleaner 500ml', 'GC', 'btl', '92.50', 18, 2400, 480, 1),
  ('PH1L', 'Phenyl 1L', NULL, 'BTL', '65', 18, 1200, 0, 1),
  ('soap', 'Soap Bar', 'SB|bar', 'pcs', '1,234.00', 5, 300, NULL, 1),
  ('OLD', 'Discontinued', NULL, 'nos', '10', 18, 0, 0, 0);
INSERT INTO Parties VALUES
  ('C01', 'Rajesh Stores', '98100 00001', 'Kirana', '50000', '12000.50', 'cash|chq'),
  ('C02', 'Mehta Traders', '+91-9810000002', 'wholesale', '1,00,000.00', '0', 'NEFT'),
  ('C03', 'New Shop', NULL, NULL, NULL, '0', NULL);
INSERT INTO Bills VALUES ('B-1', 'C01', '20/02/2026', '12000.50', '12000.50');
INSERT INTO SalesLines VALUES
  ('T-1', 1, '2026-03-01', 'C01', 'GC500', 24, '92.50', '18', 2, '2026-03-01 10:00:00'),
  ('T-1', 2, '2026-03-01', 'C01', 'PH1L', 12, '65.00', '18', 2, '2026-03-01 10:00:00'),
  ('T-2', 1, '2026-03-02', 'C02', 'SOAP', 100, '25', '5', 0, '2026-03-02 11:00:00');
INSERT INTO MoneyReceipts VALUES
  ('R-1', '05/03/2026', 'C01', '5,000.00', 'CHQ'),
  ('R-2', '2026-03-06', 'c02', '2500', ' neft ');
INSERT INTO GRN VALUES ('G-1', '2026-03-04', 'GC500', 10);
