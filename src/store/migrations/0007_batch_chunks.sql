-- Batch rows a chunk at a time. A row per input row made a million-row upload spend most of its
-- time in row inserts, and every row's result was written again when its chunk finished. Now a
-- chunk's rows are one JSON record, written as the file streams in; a processed chunk keeps one
-- output record (the answer of each of its numbers, the results of its scored rows), and the
-- results of rows without a name are rebuilt from their number's answer when read.
-- Numbers that occur in several chunks keep their one answer and refund in batch_numbers
-- (`answered` false until the first chunk with the number commits); the others live in their
-- chunk's output, whose single commit is their "once".
-- The chunk records are text holding JSON: written and read whole, never queried inside, so
-- the server need not parse them.
CREATE TABLE IF NOT EXISTS batch_chunk_rows (
  job_id    text NOT NULL REFERENCES batch_jobs (id) ON DELETE CASCADE,
  chunk_no  integer NOT NULL,
  first_row integer NOT NULL,
  last_row  integer NOT NULL,
  rows      text NOT NULL,
  PRIMARY KEY (job_id, chunk_no)
);
CREATE INDEX IF NOT EXISTS batch_chunk_rows_last ON batch_chunk_rows (job_id, last_row);
ALTER TABLE batch_chunks ADD COLUMN /*[postgres] IF NOT EXISTS*/ output text;
ALTER TABLE batch_chunks ADD COLUMN /*[postgres] IF NOT EXISTS*/ shared boolean NOT NULL DEFAULT false;
ALTER TABLE batch_numbers ADD COLUMN /*[postgres] IF NOT EXISTS*/ answered boolean NOT NULL DEFAULT true;

-- Jobs from before: half-written uploads go (as the start-up sweep would), the rest move over.
DELETE FROM batch_jobs WHERE status = 'uploading';
-- rows become chunk records, and processed rows keep the result they were given (in each
-- engine's JSON functions)
-- [postgres]
INSERT INTO batch_chunk_rows (job_id, chunk_no, first_row, last_row, rows)
SELECT c.job_id, c.chunk_no, c.first_row, c.last_row,
       coalesce((SELECT jsonb_agg(jsonb_build_array(r.row_id, r.b_no_raw, r.b_no, r.valid, r.name, r.address, r.cells) ORDER BY r.row_id)
                   FROM batch_rows r WHERE r.job_id = c.job_id AND r.row_id BETWEEN c.first_row AND c.last_row), '[]'::jsonb)::text
  FROM batch_chunks c
ON CONFLICT DO NOTHING;
UPDATE batch_chunks c SET output = jsonb_build_object('numbers', '[]'::jsonb, 'refs', '[]'::jsonb, 'distinct', '[]'::jsonb, 'scored', s.scored)::text
  FROM (SELECT c2.job_id, c2.chunk_no,
               jsonb_agg(jsonb_build_array(r.row_id, jsonb_build_object('result', r.result, 'features', r.features, 'addressKey', r.address_key)) ORDER BY r.row_id) AS scored
          FROM batch_chunks c2 JOIN batch_rows r ON r.job_id = c2.job_id AND r.row_id BETWEEN c2.first_row AND c2.last_row
         WHERE r.result IS NOT NULL
         GROUP BY c2.job_id, c2.chunk_no) s
 WHERE c.job_id = s.job_id AND c.chunk_no = s.chunk_no;
-- [end]
-- [sqlite]
INSERT INTO batch_chunk_rows (job_id, chunk_no, first_row, last_row, rows)
SELECT c.job_id, c.chunk_no, c.first_row, c.last_row,
       coalesce((SELECT json_group_array(json_array(r.row_id, r.b_no_raw, r.b_no, json(CASE WHEN r.valid THEN 'true' ELSE 'false' END), r.name, r.address, json(r.cells)) ORDER BY r.row_id)
                   FROM batch_rows r WHERE r.job_id = c.job_id AND r.row_id BETWEEN c.first_row AND c.last_row), '[]')
  FROM batch_chunks c;
UPDATE batch_chunks SET output = (
  SELECT json_object('numbers', json('[]'), 'refs', json('[]'), 'distinct', json('[]'), 'scored',
           json_group_array(json_array(r.row_id, json_object('result', json(r.result), 'features', json(r.features), 'addressKey', r.address_key))))
    FROM batch_rows r
   WHERE r.job_id = batch_chunks.job_id AND r.row_id BETWEEN batch_chunks.first_row AND batch_chunks.last_row AND r.result IS NOT NULL)
 WHERE EXISTS (SELECT 1 FROM batch_rows r WHERE r.job_id = batch_chunks.job_id AND r.row_id BETWEEN batch_chunks.first_row AND batch_chunks.last_row AND r.result IS NOT NULL);
-- [end]
-- unprocessed chunks treat every number as shared, so none is answered or refunded twice
UPDATE batch_chunks SET shared = true WHERE state <> 'done';
INSERT INTO batch_numbers (job_id, b_no, answer, refunded, answered)
SELECT DISTINCT r.job_id, r.b_no, NULL/*[postgres] ::jsonb*/, false, false
  FROM batch_rows r JOIN batch_chunks c ON c.job_id = r.job_id AND r.row_id BETWEEN c.first_row AND c.last_row
 WHERE c.state <> 'done' AND r.valid AND r.b_no IS NOT NULL
ON CONFLICT DO NOTHING;
DROP TABLE IF EXISTS batch_rows;
