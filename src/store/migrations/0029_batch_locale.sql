-- The language of a job's uploader (from Accept-Language), so its rows' reasons read in it; older
-- jobs (null) read in Korean as they did.
ALTER TABLE batch_jobs ADD COLUMN /*[postgres] IF NOT EXISTS*/ locale text;
