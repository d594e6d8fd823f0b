-- The watch list (see the PostgreSQL migration for the design). Times are ISO-8601 UTC text.
CREATE TABLE IF NOT EXISTS watches (
  id               TEXT PRIMARY KEY,
  account_id       TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  b_no             TEXT NOT NULL,
  name             TEXT,
  address          TEXT,
  state            TEXT,
  last_checked_at  TEXT,
  next_check_at    TEXT NOT NULL,
  failures         INTEGER NOT NULL DEFAULT 0,
  lease_holder     TEXT,
  lease_expires_at TEXT,
  created_at       TEXT NOT NULL,
  UNIQUE (account_id, b_no)
);
CREATE INDEX IF NOT EXISTS watches_due ON watches (next_check_at);
CREATE INDEX IF NOT EXISTS watches_account ON watches (account_id, id);

CREATE TABLE IF NOT EXISTS watch_history (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  watch_id    TEXT NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
  checked_at  TEXT NOT NULL,
  state       TEXT NOT NULL,
  previous    TEXT
);
CREATE INDEX IF NOT EXISTS watch_history_watch ON watch_history (watch_id, checked_at, id);
