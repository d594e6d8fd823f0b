-- Evidence of checks: each NTS answer as served to an account, kept apart from the customer's
-- lists (EVIDENCE_RETENTION_DAYS, five years by default) and signed when shown; and the service's
-- signing keys (Ed25519), the newest signing, the older ones still published for old receipts.
CREATE TABLE IF NOT EXISTS evidence (
  id            text PRIMARY KEY,
  account_id    text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  b_no          text NOT NULL,
  api           text NOT NULL,
  source        text NOT NULL,
  checked_at    timestamptz NOT NULL,
  record        text NOT NULL,
  record_sha256 text NOT NULL,
  created_at    timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS evidence_created ON evidence (created_at);

CREATE TABLE IF NOT EXISTS signing_keys (
  kid         text PRIMARY KEY,
  private_key text NOT NULL,
  public_key  text NOT NULL,
  created_at  timestamptz NOT NULL
);
