-- The books as an ERP keeps them. A sync run writes each entity in one
-- transaction with its state (sync_states); a figure the ERP sets (stock,
-- dues) is the ERP's from its first write on (sync_figures), and what the
-- chat records against it afterwards is provisional until the ERP shows
-- the same event (provisional). Times are UTC text in the store's format.

CREATE TABLE sync_states (
    entity     TEXT PRIMARY KEY,
    watermark  TEXT NOT NULL DEFAULT '',    -- the change column's greatest value read
    last_run   TEXT,                        -- when the last run ended, good or bad
    last_good  TEXT,                        -- when the data was last written in full
    rows       INTEGER NOT NULL DEFAULT 0,  -- rows the last good run read
    last_error TEXT NOT NULL DEFAULT '',
    failures   INTEGER NOT NULL DEFAULT 0   -- runs failed in a row
) WITHOUT ROWID;

CREATE TABLE sync_figures (
    figure      TEXT PRIMARY KEY CHECK (figure IN ('stock','dues')),
    owned_since TEXT NOT NULL,
    synced_at   TEXT NOT NULL               -- the last good write of the figure: "as of"
) WITHOUT ROWID;

-- A customer's bills as the ERP keeps them: the oldest unpaid one dates
-- the dues. A bill the ERP no longer lists as unpaid keeps its row with
-- nothing left to pay.
CREATE TABLE bills (
    number        TEXT PRIMARY KEY,
    customer_id   TEXT NOT NULL REFERENCES customers(id),
    date          TEXT NOT NULL,
    amount_paise  INTEGER NOT NULL,
    balance_paise INTEGER NOT NULL,
    synced_at     TEXT NOT NULL
);
CREATE INDEX bills_unpaid ON bills(customer_id, date, number) WHERE balance_paise > 0;

-- Goods received into ready stock as the ERP records them.
CREATE TABLE receipts (
    reference TEXT PRIMARY KEY,
    sku       TEXT NOT NULL REFERENCES products(sku),
    qty       INTEGER NOT NULL,
    date      TEXT NOT NULL
);

-- What the chat recorded against a figure the ERP owns: receipts and
-- deliveries (stock, qty signed), payments and credit orders (dues,
-- amount signed as it moves the outstanding). settled_by names the ERP
-- row that showed the same event ('payment:C01:…', 'bill:…',
-- 'receipt:…', 'sale:…#2') or what made it moot ('cancelled:ORD-1042'):
-- each ERP row settles one entry at most.
CREATE TABLE provisional (
    id           INTEGER PRIMARY KEY,
    figure       TEXT NOT NULL CHECK (figure IN ('stock','dues')),
    kind         TEXT NOT NULL CHECK (kind IN ('payment','order','receipt','delivery')),
    customer_id  TEXT NOT NULL DEFAULT '',
    sku          TEXT NOT NULL DEFAULT '',
    amount_paise INTEGER NOT NULL DEFAULT 0,
    qty          INTEGER NOT NULL DEFAULT 0,
    reference    TEXT NOT NULL DEFAULT '',   -- the order, the proposal, the payment's reference
    payment_id   INTEGER,                    -- the chat's payment row, for a payment
    at           TEXT NOT NULL,
    settled_at   TEXT,
    settled_by   TEXT NOT NULL DEFAULT '',
    flagged_at   TEXT
);
CREATE INDEX provisional_unsettled ON provisional(figure, at) WHERE settled_at IS NULL;
CREATE UNIQUE INDEX provisional_settled_by ON provisional(settled_by) WHERE settled_by <> '';

-- A product or customer the ERP no longer lists is inactive: no new
-- orders, no stock answers, but history keeps its name.
ALTER TABLE products ADD COLUMN active BOOLEAN NOT NULL DEFAULT 1 CHECK (active IN (0, 1));
ALTER TABLE customers ADD COLUMN active BOOLEAN NOT NULL DEFAULT 1 CHECK (active IN (0, 1));

-- A payment the ERP also holds carries the ERP's key for it (its
-- reference, upper-cased, or its date, amount and mode), so the next run
-- finds it again instead of adding it twice.
ALTER TABLE payments ADD COLUMN source_key TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX payments_source_key ON payments(customer_id, source_key) WHERE source_key <> '';

-- The ERP entity (sales, open_orders) that last wrote an imported order.
ALTER TABLE orders ADD COLUMN erp_entity TEXT NOT NULL DEFAULT '';
