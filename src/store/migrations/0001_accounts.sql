-- Accounts and their API keys. Keys are stored only as a SHA-256 hash of the whole key;
-- the prefix is kept in clear so people can tell keys apart.
CREATE TABLE IF NOT EXISTS accounts (
  id          text PRIMARY KEY,
  email       text NOT NULL UNIQUE,
  plan        text NOT NULL CHECK (plan IN ('free', 'pro', 'business', 'enterprise')),
  quota_limit bigint CHECK (quota_limit IS NULL OR quota_limit >= 0),
  created_at  timestamptz NOT NULL
);

CREATE TABLE IF NOT EXISTS api_keys (
  id           text PRIMARY KEY,
  account_id   text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  prefix       text NOT NULL UNIQUE,
  key_hash     text NOT NULL UNIQUE,
  created_at   timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at   timestamptz
);

CREATE INDEX IF NOT EXISTS api_keys_account ON api_keys (account_id);
