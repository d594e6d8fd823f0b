-- What labels need of a processed chunk's scored rows (row, address key, model version, features),
-- apart from the output: a label reads a few kilobytes instead of parsing the chunk's results.
-- Chunks processed before it have none, and labels read their output.
ALTER TABLE batch_chunks ADD COLUMN /*[postgres] IF NOT EXISTS*/ facts text;
