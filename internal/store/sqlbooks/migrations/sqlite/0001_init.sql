-- The catalog: prices in paise per base unit, stock in base units.
CREATE TABLE products (
    sku          TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    aliases      TEXT NOT NULL DEFAULT '',   -- '|'-separated
    unit         TEXT NOT NULL,
    pack_sizes   TEXT NOT NULL DEFAULT '',   -- 'carton=24|box=6'
    price_paise  INTEGER NOT NULL CHECK (price_paise >= 0),
    gst_bp       INTEGER NOT NULL DEFAULT 1800 CHECK (gst_bp >= 0), -- hundredths of a percent
    stock_ready  INTEGER NOT NULL DEFAULT 0,
    stock_wip    INTEGER NOT NULL DEFAULT 0,
    updated_at   TEXT NOT NULL
);

CREATE TABLE customers (
    id                 TEXT PRIMARY KEY,
    name               TEXT NOT NULL,
    aliases            TEXT NOT NULL DEFAULT '',
    phone              TEXT NOT NULL DEFAULT '',
    segment            TEXT NOT NULL DEFAULT '',
    credit_limit_paise INTEGER NOT NULL DEFAULT 0 CHECK (credit_limit_paise >= 0),
    outstanding_paise  INTEGER NOT NULL DEFAULT 0,
    payment_modes      TEXT NOT NULL DEFAULT '',
    updated_at         TEXT NOT NULL
);

CREATE TABLE users (
    phone      TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    role       TEXT NOT NULL CHECK (role IN ('sales','owner','accounts')),
    updated_at TEXT NOT NULL
);

-- Orders: status draft|pending_approval|committed|delivered|rejected|cancelled.
CREATE TABLE orders (
    id              TEXT PRIMARY KEY,
    customer_id     TEXT NOT NULL REFERENCES customers(id),
    placed_by       TEXT NOT NULL DEFAULT '',
    payment_mode    TEXT NOT NULL,
    status          TEXT NOT NULL,
    subtotal_paise  INTEGER NOT NULL,
    gst_paise       INTEGER NOT NULL,
    total_paise     INTEGER NOT NULL,
    fingerprint     TEXT NOT NULL DEFAULT '',
    created_at      TEXT NOT NULL,
    committed_at    TEXT,
    delivered_at    TEXT
);
CREATE INDEX orders_customer ON orders(customer_id, created_at);
CREATE INDEX orders_status ON orders(status, created_at);
CREATE INDEX orders_created ON orders(created_at);

CREATE TABLE order_lines (
    order_id     TEXT NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    line_no      INTEGER NOT NULL,
    sku          TEXT NOT NULL REFERENCES products(sku),
    qty          INTEGER NOT NULL CHECK (qty > 0),     -- base units
    said_qty     INTEGER NOT NULL DEFAULT 0,           -- as the person said it
    said_unit    TEXT NOT NULL DEFAULT '',
    price_paise  INTEGER NOT NULL,
    gst_bp       INTEGER NOT NULL,
    amount_paise INTEGER NOT NULL,                     -- qty × price, before GST
    gst_paise    INTEGER NOT NULL,
    PRIMARY KEY (order_id, line_no)
);
CREATE INDEX order_lines_sku ON order_lines(sku);

CREATE TABLE payments (
    id           INTEGER PRIMARY KEY,
    customer_id  TEXT NOT NULL REFERENCES customers(id),
    amount_paise INTEGER NOT NULL CHECK (amount_paise > 0),
    mode         TEXT NOT NULL,
    received_at  TEXT NOT NULL,
    reference    TEXT NOT NULL DEFAULT ''
);
CREATE INDEX payments_customer ON payments(customer_id, received_at);

-- Every inbound message, once per MessageSid, with the reply it got.
CREATE TABLE inbound_messages (
    sid          TEXT PRIMARY KEY,
    sender       TEXT NOT NULL,
    body         TEXT NOT NULL,
    received_at  TEXT NOT NULL,
    reply        TEXT,
    replied_at   TEXT
);

-- Every outbound side effect, written in the same transaction as the change
-- that caused it and sent by the dispatcher.
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY,
    kind            TEXT NOT NULL CHECK (kind IN ('whatsapp','email')),
    recipient       TEXT NOT NULL,
    payload         TEXT NOT NULL,      -- JSON
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','sent','failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    lease_until     TEXT,
    last_error      TEXT NOT NULL DEFAULT '',
    provider_id     TEXT NOT NULL DEFAULT '',
    delivery_status TEXT NOT NULL DEFAULT '',
    created_at      TEXT NOT NULL,
    sent_at         TEXT
);
CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
CREATE INDEX outbox_provider ON outbox(provider_id) WHERE provider_id <> '';

-- Delivery statuses reported by Twilio's status callback.
CREATE TABLE message_statuses (
    id          INTEGER PRIMARY KEY,
    message_sid TEXT NOT NULL,
    status      TEXT NOT NULL,
    error_code  TEXT NOT NULL DEFAULT '',
    received_at TEXT NOT NULL
);
CREATE INDEX message_statuses_sid ON message_statuses(message_sid);

CREATE TABLE audit_log (
    id      INTEGER PRIMARY KEY,
    at      TEXT NOT NULL,
    actor   TEXT NOT NULL,   -- a phone, 'system', 'mcp'
    kind    TEXT NOT NULL,   -- inbound, decision, outbound, refusal, import…
    subject TEXT NOT NULL DEFAULT '',
    detail  TEXT NOT NULL DEFAULT '{}'  -- JSON, redacted
);
CREATE INDEX audit_log_kind ON audit_log(kind, at);
CREATE INDEX audit_log_subject ON audit_log(subject);
