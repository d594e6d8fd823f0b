-- NTS answers shared by every process. Entries past expires_at are kept: they answer offline
-- jobs and stand in, flagged stale, while the upstream is down.
CREATE TABLE IF NOT EXISTS status_cache (
  b_no       text PRIMARY KEY,
  record     jsonb NOT NULL,
  source     text NOT NULL,
  checked_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
