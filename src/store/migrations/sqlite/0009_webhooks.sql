-- Webhooks (see the PostgreSQL migration for the design).
CREATE TABLE IF NOT EXISTS webhook_endpoints (
  account_id      TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  url             TEXT NOT NULL,
  secret          TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  disabled_at     TEXT,
  disabled_reason TEXT
);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id               TEXT PRIMARY KEY,
  account_id       TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  type             TEXT NOT NULL,
  body             TEXT NOT NULL,
  state            TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'abandoned')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  TEXT,
  lease_holder     TEXT,
  lease_expires_at TEXT,
  last_status      INTEGER,
  last_error       TEXT,
  created_at       TEXT NOT NULL,
  finished_at      TEXT
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_account ON webhook_deliveries (account_id, created_at, id);

CREATE TABLE IF NOT EXISTS webhook_attempts (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  delivery_id  TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt      INTEGER NOT NULL,
  at           TEXT NOT NULL,
  url          TEXT NOT NULL,
  status       INTEGER,
  error        TEXT,
  duration_ms  INTEGER NOT NULL,
  UNIQUE (delivery_id, attempt)
);
