-- Accounts and their API keys. Keys are stored only as a SHA-256 hash of the whole key;
-- the prefix is kept in clear so people can tell keys apart.
CREATE TABLE IF NOT EXISTS accounts (
  id          TEXT PRIMARY KEY,
  email       TEXT NOT NULL UNIQUE,
  plan        TEXT NOT NULL CHECK (plan IN ('free', 'pro', 'business', 'enterprise')),
  quota_limit INTEGER CHECK (quota_limit IS NULL OR quota_limit >= 0),
  created_at  TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS api_keys (
  id           TEXT PRIMARY KEY,
  account_id   TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  prefix       TEXT NOT NULL UNIQUE,
  key_hash     TEXT NOT NULL UNIQUE,
  created_at   TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at   TEXT
);

CREATE INDEX IF NOT EXISTS api_keys_account ON api_keys (account_id);
