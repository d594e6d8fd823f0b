-- A shared number's recorded answer, when it was a fresh cache entry, names that entry here: its
-- source and check time as `source checked_at`, the same text as the answer's own fields. A chunk
-- answered from the cache checks that every shared number of it was recorded with the entry it
-- read (batches.ts recordCacheAnswers); comparing this column costs a fraction of reading the
-- fields out of each answer's JSON, which was a sixth of a repeating million-row list's time.
-- Null for any other answer (looked up afresh, stale, none) and for answers recorded before it:
-- those read as recorded otherwise, and the chunk goes the general way, as it would have.
ALTER TABLE batch_numbers ADD COLUMN /*[postgres] IF NOT EXISTS*/ pinned text;
