-- Each edition of the daily digest as it was first composed for sending,
-- so that asking for a day later shows what people read then, not the
-- books as they stand now (a cancellation lowers a day's sales after its
-- digest went out). The figures are the briefs' headline numbers as their
-- readers saw them, to say what reads differently now.
CREATE TABLE digest_editions (
    digest_date      TEXT PRIMARY KEY, -- YYYY-MM-DD in MUNSHI_TZ: the day the digest is about
    headline         TEXT NOT NULL,
    owner_text       TEXT NOT NULL,
    accounts_text    TEXT NOT NULL,
    owner_figures    TEXT NOT NULL,    -- JSON: [{"name":"sales","value":"₹49,288"}, …]
    accounts_figures TEXT NOT NULL,
    kept_at          TEXT NOT NULL
) WITHOUT ROWID;
