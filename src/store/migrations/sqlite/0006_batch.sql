-- Batch jobs. A job is written while its file streams in ('uploading', invisible to everyone),
-- then queued in one transaction with its quota charge and its chunks. Workers lease chunks;
-- a chunk's results, its numbers' refunds and the job's progress commit together, so a crash
-- anywhere leaves every row processed once and every lookup charged once.
CREATE TABLE IF NOT EXISTS batch_jobs (
  id               TEXT PRIMARY KEY,
  account_id       TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  status           TEXT NOT NULL CHECK (status IN ('uploading', 'queued', 'processing', 'done', 'failed')),
  failure_reason   TEXT,
  filename         TEXT,
  file_kind        TEXT NOT NULL,
  columns          TEXT NOT NULL,
  chosen           TEXT NOT NULL,
  total            INTEGER NOT NULL DEFAULT 0,
  distinct_numbers INTEGER NOT NULL DEFAULT 0,
  processed        INTEGER NOT NULL DEFAULT 0,
  chunks_total     INTEGER NOT NULL DEFAULT 0,
  chunks_done      INTEGER NOT NULL DEFAULT 0,
  offline          INTEGER NOT NULL,
  paid             INTEGER NOT NULL,
  month            TEXT NOT NULL,
  charged          INTEGER NOT NULL DEFAULT 0,
  overage          INTEGER NOT NULL DEFAULT 0,
  refunded         INTEGER NOT NULL DEFAULT 0,
  idempotency_key  TEXT,
  fingerprint      TEXT,
  created_at       TEXT NOT NULL,
  started_at       TEXT,
  finished_at      TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS batch_jobs_idempotency ON batch_jobs (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS batch_jobs_account ON batch_jobs (account_id, created_at);

CREATE TABLE IF NOT EXISTS batch_rows (
  job_id      TEXT NOT NULL REFERENCES batch_jobs (id) ON DELETE CASCADE,
  row_id      INTEGER NOT NULL,
  b_no_raw    TEXT NOT NULL,
  b_no        TEXT,
  valid       INTEGER NOT NULL,
  name        TEXT,
  address     TEXT,
  cells       TEXT NOT NULL,
  result      TEXT,
  biz_status  TEXT,
  grade       TEXT,
  features    TEXT,
  address_key TEXT,
  PRIMARY KEY (job_id, row_id)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS batch_chunks (
  job_id           TEXT NOT NULL REFERENCES batch_jobs (id) ON DELETE CASCADE,
  chunk_no         INTEGER NOT NULL,
  first_row        INTEGER NOT NULL,
  last_row         INTEGER NOT NULL,
  state            TEXT NOT NULL CHECK (state IN ('pending', 'leased', 'done')),
  holder           TEXT,
  lease_expires_at TEXT,
  attempts         INTEGER NOT NULL DEFAULT 0,
  job_created_at   TEXT NOT NULL,
  PRIMARY KEY (job_id, chunk_no)
);
CREATE INDEX IF NOT EXISTS batch_chunks_claim ON batch_chunks (state, job_created_at, chunk_no);

-- Each distinct number of a job, once: its answer (shared by every row with it) and whether its
-- lookup was given back. The primary key is what makes a refund happen once.
CREATE TABLE IF NOT EXISTS batch_numbers (
  job_id   TEXT NOT NULL REFERENCES batch_jobs (id) ON DELETE CASCADE,
  b_no     TEXT NOT NULL,
  answer   TEXT,
  refunded INTEGER NOT NULL,
  PRIMARY KEY (job_id, b_no)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS batch_counts (
  job_id TEXT NOT NULL REFERENCES batch_jobs (id) ON DELETE CASCADE,
  kind   TEXT NOT NULL,
  value  TEXT NOT NULL,
  n      INTEGER NOT NULL,
  PRIMARY KEY (job_id, kind, value)
);
