-- The watch list. One entry per account and number; its last observed state is kept on the entry,
-- and every check that changed status or grade (and the first answered one) adds a history row.
-- Due entries are claimed with a lease (holder + expiry), so several schedulers share the work and
-- a check commits only while its lease is still held.
CREATE TABLE IF NOT EXISTS watches (
  id               text PRIMARY KEY,
  account_id       text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  b_no             text NOT NULL,
  name             text,
  address          text,
  state            jsonb,
  last_checked_at  timestamptz,
  next_check_at    timestamptz NOT NULL,
  failures         integer NOT NULL DEFAULT 0,
  lease_holder     text,
  lease_expires_at timestamptz,
  created_at       timestamptz NOT NULL,
  UNIQUE (account_id, b_no)
);
CREATE INDEX IF NOT EXISTS watches_due ON watches (next_check_at);
CREATE INDEX IF NOT EXISTS watches_account ON watches (account_id, id);

CREATE TABLE IF NOT EXISTS watch_history (
  id          bigserial PRIMARY KEY,
  watch_id    text NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
  checked_at  timestamptz NOT NULL,
  state       jsonb NOT NULL,
  previous    jsonb
);
CREATE INDEX IF NOT EXISTS watch_history_watch ON watch_history (watch_id, checked_at, id);
