-- NTS answers shared by every process. Entries past expires_at are kept: they answer offline
-- jobs and stand in, flagged stale, while the upstream is down.
CREATE TABLE IF NOT EXISTS status_cache (
  b_no       TEXT PRIMARY KEY,
  record     TEXT NOT NULL,
  source     TEXT NOT NULL,
  checked_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
