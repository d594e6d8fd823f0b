-- What grows with traffic is swept by age (src/jobs/retention-sweep.ts): these indexes let each
-- sweep read only what is old enough to go.
CREATE INDEX IF NOT EXISTS status_cache_checked ON status_cache (checked_at);
CREATE INDEX IF NOT EXISTS webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE state <> 'pending';
CREATE INDEX IF NOT EXISTS console_attempts_at ON console_attempts (at);
CREATE INDEX IF NOT EXISTS console_sessions_expires ON console_sessions (expires_at);
