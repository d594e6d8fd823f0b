-- Batch rows a chunk at a time. A row per input row made a million-row upload spend most of its
-- time in row inserts, and every row's result was written again when its chunk finished. Now a
-- chunk's rows are one JSON record, written as the file streams in; a processed chunk keeps one
-- output record (the answer of each of its numbers, the results of its scored rows), and the
-- results of rows without a name are rebuilt from their number's answer when read.
-- Numbers that occur in several chunks keep their one answer and refund in batch_numbers
-- (`answered` = 0 until the first chunk with the number commits); the others live in their
-- chunk's output, whose single commit is their "once".
CREATE TABLE IF NOT EXISTS batch_chunk_rows (
  job_id    TEXT NOT NULL REFERENCES batch_jobs (id) ON DELETE CASCADE,
  chunk_no  INTEGER NOT NULL,
  first_row INTEGER NOT NULL,
  last_row  INTEGER NOT NULL,
  rows      TEXT NOT NULL,
  PRIMARY KEY (job_id, chunk_no)
);
CREATE INDEX IF NOT EXISTS batch_chunk_rows_last ON batch_chunk_rows (job_id, last_row);
ALTER TABLE batch_chunks ADD COLUMN output TEXT;
ALTER TABLE batch_chunks ADD COLUMN shared INTEGER NOT NULL DEFAULT 0;
ALTER TABLE batch_numbers ADD COLUMN answered INTEGER NOT NULL DEFAULT 1;

-- Jobs from before: half-written uploads go (as the start-up sweep would), the rest move over.
DELETE FROM batch_jobs WHERE status = 'uploading';
INSERT INTO batch_chunk_rows (job_id, chunk_no, first_row, last_row, rows)
SELECT c.job_id, c.chunk_no, c.first_row, c.last_row,
       coalesce((SELECT json_group_array(json_array(r.row_id, r.b_no_raw, r.b_no, json(CASE WHEN r.valid THEN 'true' ELSE 'false' END), r.name, r.address, json(r.cells)) ORDER BY r.row_id)
                   FROM batch_rows r WHERE r.job_id = c.job_id AND r.row_id BETWEEN c.first_row AND c.last_row), '[]')
  FROM batch_chunks c;
-- processed rows keep the result they were given
UPDATE batch_chunks SET output = (
  SELECT json_object('numbers', json('[]'), 'refs', json('[]'), 'distinct', json('[]'), 'scored',
           json_group_array(json_array(r.row_id, json_object('result', json(r.result), 'features', json(r.features), 'addressKey', r.address_key))))
    FROM batch_rows r
   WHERE r.job_id = batch_chunks.job_id AND r.row_id BETWEEN batch_chunks.first_row AND batch_chunks.last_row AND r.result IS NOT NULL)
 WHERE EXISTS (SELECT 1 FROM batch_rows r WHERE r.job_id = batch_chunks.job_id AND r.row_id BETWEEN batch_chunks.first_row AND batch_chunks.last_row AND r.result IS NOT NULL);
-- unprocessed chunks treat every number as shared, so none is answered or refunded twice
UPDATE batch_chunks SET shared = 1 WHERE state <> 'done';
INSERT INTO batch_numbers (job_id, b_no, answer, refunded, answered)
SELECT DISTINCT r.job_id, r.b_no, NULL, 0, 0
  FROM batch_rows r JOIN batch_chunks c ON c.job_id = r.job_id AND r.row_id BETWEEN c.first_row AND c.last_row
 WHERE c.state <> 'done' AND r.valid = 1 AND r.b_no IS NOT NULL
ON CONFLICT DO NOTHING;
DROP TABLE batch_rows;
