-- What reading a customer's file decided on its own, so the job can say it: the worksheet picked,
-- 합계/소계 rows skipped, 9-digit numbers read with the leading zero Excel dropped. Null on older jobs.
ALTER TABLE batch_jobs ADD COLUMN /*[postgres] IF NOT EXISTS*/ file_report jsonb;
