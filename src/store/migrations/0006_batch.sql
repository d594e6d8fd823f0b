-- Batch jobs. A job is written while its file streams in ('uploading', invisible to everyone),
-- then queued in one transaction with its quota charge and its chunks. Workers lease chunks;
-- a chunk's results, its numbers' refunds and the job's progress commit together, so a crash
-- anywhere leaves every row processed once and every lookup charged once.
CREATE TABLE IF NOT EXISTS batch_jobs (
  id               text PRIMARY KEY,
  account_id       text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  status           text NOT NULL CHECK (status IN ('uploading', 'queued', 'processing', 'done', 'failed')),
  failure_reason   text,
  filename         text,
  file_kind        text NOT NULL,
  columns          jsonb NOT NULL,
  chosen           jsonb NOT NULL,
  total            integer NOT NULL DEFAULT 0,
  distinct_numbers integer NOT NULL DEFAULT 0,
  processed        integer NOT NULL DEFAULT 0,
  chunks_total     integer NOT NULL DEFAULT 0,
  chunks_done      integer NOT NULL DEFAULT 0,
  offline          boolean NOT NULL,
  paid             boolean NOT NULL,
  month            text NOT NULL,
  charged          integer NOT NULL DEFAULT 0,
  overage          integer NOT NULL DEFAULT 0,
  refunded         integer NOT NULL DEFAULT 0,
  idempotency_key  text,
  fingerprint      text,
  created_at       timestamptz NOT NULL,
  started_at       timestamptz,
  finished_at      timestamptz
);
CREATE UNIQUE INDEX IF NOT EXISTS batch_jobs_idempotency ON batch_jobs (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS batch_jobs_account ON batch_jobs (account_id, created_at);

CREATE TABLE IF NOT EXISTS batch_rows (
  job_id      text NOT NULL REFERENCES batch_jobs (id) ON DELETE CASCADE,
  row_id      integer NOT NULL,
  b_no_raw    text NOT NULL,
  b_no        text,
  valid       boolean NOT NULL,
  name        text,
  address     text,
  cells       jsonb NOT NULL,
  result      jsonb,
  biz_status  text,
  grade       text,
  features    jsonb,
  address_key text,
  PRIMARY KEY (job_id, row_id)
) /*[sqlite] WITHOUT ROWID*/;

CREATE TABLE IF NOT EXISTS batch_chunks (
  job_id           text NOT NULL REFERENCES batch_jobs (id) ON DELETE CASCADE,
  chunk_no         integer NOT NULL,
  first_row        integer NOT NULL,
  last_row         integer NOT NULL,
  state            text NOT NULL CHECK (state IN ('pending', 'leased', 'done')),
  holder           text,
  lease_expires_at timestamptz,
  attempts         integer NOT NULL DEFAULT 0,
  job_created_at   timestamptz NOT NULL,
  PRIMARY KEY (job_id, chunk_no)
);
CREATE INDEX IF NOT EXISTS batch_chunks_claim ON batch_chunks (state, job_created_at, chunk_no);

-- Each distinct number of a job, once: its answer (shared by every row with it) and whether its
-- lookup was given back. The primary key is what makes a refund happen once.
CREATE TABLE IF NOT EXISTS batch_numbers (
  job_id   text NOT NULL REFERENCES batch_jobs (id) ON DELETE CASCADE,
  b_no     text NOT NULL,
  answer   jsonb,
  refunded boolean NOT NULL,
  PRIMARY KEY (job_id, b_no)
) /*[sqlite] WITHOUT ROWID*/;

CREATE TABLE IF NOT EXISTS batch_counts (
  job_id text NOT NULL REFERENCES batch_jobs (id) ON DELETE CASCADE,
  kind   text NOT NULL,
  value  text NOT NULL,
  n      integer NOT NULL,
  PRIMARY KEY (job_id, kind, value)
);
