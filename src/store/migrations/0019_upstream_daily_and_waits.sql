-- The numbers asked of NTS per Korean day (KST), shared by every process on the database: the
-- free NTS allowance is counted in numbers a day, not in calls.
CREATE TABLE IF NOT EXISTS upstream_daily (
  day     text PRIMARY KEY,
  numbers bigint NOT NULL CHECK (numbers >= 0)
);

-- A job whose upstream is down (or whose day's allowance is spent) waits instead of answering
-- unknown: since when, and why, for its status.
ALTER TABLE batch_jobs ADD COLUMN /*[postgres] IF NOT EXISTS*/ upstream_wait_since timestamptz;
ALTER TABLE batch_jobs ADD COLUMN /*[postgres] IF NOT EXISTS*/ upstream_wait_reason text;
