-- A count every write to the status cache raises, and on each entry the count it was written at
-- (status-cache-store.ts; kept on the embedded store, whose jobs alone record shared answers from
-- the cache). The counter is one row, locked by each write until it commits, so the counts follow
-- the order writes become visible. A job that records its shared numbers'
-- answers from the cache when accepted keeps the count it read then (batch_jobs.pinned_seq,
-- with the registry and the moment): a chunk whose entries were all written by then reads the
-- very answers recorded, and need not compare them with the job's (BatchWorker, cached-chunk.ts).
CREATE TABLE IF NOT EXISTS status_cache_writes (
  id  integer PRIMARY KEY CHECK (id = 1),
  seq bigint NOT NULL
);
INSERT INTO status_cache_writes (id, seq) VALUES (1, 0) ON CONFLICT DO NOTHING;

-- null: written before the count existed, so before any job that reads it
ALTER TABLE status_cache ADD COLUMN written bigint;

ALTER TABLE batch_jobs ADD COLUMN pinned_seq bigint;
ALTER TABLE batch_jobs ADD COLUMN pinned_source text;
ALTER TABLE batch_jobs ADD COLUMN pinned_at timestamptz;
