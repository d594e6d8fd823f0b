-- An upload in progress holds a lease its process renews while the file streams in. A process
-- that dies stops renewing: once the lease has run out, the half-written job (and its chunks, by
-- cascade) is removed and its Idempotency-Key can be used again, without waiting for a restart.
ALTER TABLE batch_jobs ADD COLUMN /*[postgres] IF NOT EXISTS*/ upload_lease_until timestamptz;
-- uploads from before the lease: as the old start-up sweep would have, give them an hour
-- [postgres]
UPDATE batch_jobs SET upload_lease_until = created_at + interval '1 hour' WHERE status = 'uploading' AND upload_lease_until IS NULL;
-- [end]
-- [sqlite]
UPDATE batch_jobs SET upload_lease_until = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+1 hour') WHERE status = 'uploading';
-- [end]
CREATE INDEX IF NOT EXISTS batch_jobs_uploading ON batch_jobs (upload_lease_until) WHERE status = 'uploading';
