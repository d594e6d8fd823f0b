-- Recorded mailing outcomes and the bounce models fitted from them.
-- A label belongs to a row of a batch job; labelling the same row again replaces it. The features
-- the row was scored with are kept with it, so a refit never has to recompute the past.
CREATE TABLE IF NOT EXISTS labels (
  account_id    text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  job_id        text NOT NULL,
  row_id        integer NOT NULL,
  b_no          text NOT NULL,
  address_key   text,
  bounced       boolean NOT NULL,
  reason        text,
  features      jsonb NOT NULL,
  model_version text,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL,
  PRIMARY KEY (account_id, job_id, row_id)
);
CREATE INDEX IF NOT EXISTS labels_account_bno ON labels (account_id, b_no);
CREATE INDEX IF NOT EXISTS labels_account_address ON labels (account_id, address_key);
CREATE INDEX IF NOT EXISTS labels_updated ON labels (updated_at);

-- Every fitted global model, newest wins. Versions are never reused.
CREATE TABLE IF NOT EXISTS models (
  version    text PRIMARY KEY,
  kind       text NOT NULL,
  params     jsonb NOT NULL,
  trained_on integer NOT NULL,
  created_at timestamptz NOT NULL
);

-- An account's intercept shift on top of a global model version.
CREATE TABLE IF NOT EXISTS account_model_offsets (
  account_id    text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  model_version text NOT NULL,
  offset_logit  double precision NOT NULL,
  trained_on    integer NOT NULL,
  created_at    timestamptz NOT NULL
);

-- Named leases so that one process at a time does a periodic job (model refits, sweeps).
CREATE TABLE IF NOT EXISTS leases (
  name       text PRIMARY KEY,
  holder     text NOT NULL,
  expires_at timestamptz NOT NULL
);
