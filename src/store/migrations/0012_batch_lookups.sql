-- The number of each row of a chunk that is looked up (rows with an invalid number have none;
-- repeats kept, in row order), as a JSON array, for a chunk none of whose rows is scored (has a
-- name). Such a chunk's answers can be read from the status cache in one statement
-- (BatchStore.cachedGroups) without reading its rows. NULL: a row is scored, or the chunk was
-- stored before this column existed; those chunks are processed row by row as before.
ALTER TABLE batch_chunk_rows ADD COLUMN /*[postgres] IF NOT EXISTS*/ lookups jsonb;
