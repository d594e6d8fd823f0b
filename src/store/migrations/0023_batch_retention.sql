-- Retention of customers' lists: a job's uploaded cells and results expire after the account's
-- retention (the operator's override, else BATCH_RETENTION_DAYS); the job itself stays, with its
-- counts and when it expired, so it can still say what it was and that its rows are gone.
ALTER TABLE batch_jobs ADD COLUMN /*[postgres] IF NOT EXISTS*/ expired_at timestamptz;
ALTER TABLE accounts ADD COLUMN /*[postgres] IF NOT EXISTS*/ batch_retention_days integer;
-- the sweep looks for finished jobs by when they finished
CREATE INDEX IF NOT EXISTS batch_jobs_retention ON batch_jobs (finished_at) WHERE expired_at IS NULL;
