-- Recorded mailing outcomes and the bounce models fitted from them.
-- A label belongs to a row of a batch job; labelling the same row again replaces it. The features
-- the row was scored with are kept with it, so a refit never has to recompute the past.
CREATE TABLE IF NOT EXISTS labels (
  account_id    TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  job_id        TEXT NOT NULL,
  row_id        INTEGER NOT NULL,
  b_no          TEXT NOT NULL,
  address_key   TEXT,
  bounced       INTEGER NOT NULL CHECK (bounced IN (0, 1)),
  reason        TEXT,
  features      TEXT NOT NULL,
  model_version TEXT,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL,
  PRIMARY KEY (account_id, job_id, row_id)
);
CREATE INDEX IF NOT EXISTS labels_account_bno ON labels (account_id, b_no);
CREATE INDEX IF NOT EXISTS labels_account_address ON labels (account_id, address_key);
CREATE INDEX IF NOT EXISTS labels_updated ON labels (updated_at);

-- Every fitted global model, newest wins. Versions are never reused.
CREATE TABLE IF NOT EXISTS models (
  version    TEXT PRIMARY KEY,
  kind       TEXT NOT NULL,
  params     TEXT NOT NULL,
  trained_on INTEGER NOT NULL,
  created_at TEXT NOT NULL
);

-- An account's intercept shift on top of a global model version.
CREATE TABLE IF NOT EXISTS account_model_offsets (
  account_id    TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  model_version TEXT NOT NULL,
  offset_logit  REAL NOT NULL,
  trained_on    INTEGER NOT NULL,
  created_at    TEXT NOT NULL
);

-- Named leases so that one process at a time does a periodic job (model refits, sweeps).
CREATE TABLE IF NOT EXISTS leases (
  name       TEXT PRIMARY KEY,
  holder     TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
