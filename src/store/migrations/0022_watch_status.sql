-- The watch list filtered by status ("show me every closed supplier" among 200,000): the last
-- answered status is kept beside the state it comes from, so a filter reads an index instead of
-- parsing every entry's state. NULL until the first answered check.
ALTER TABLE watches ADD COLUMN /*[postgres] IF NOT EXISTS*/ biz_status text;
UPDATE watches SET biz_status = state ->> 'biz_status' WHERE state IS NOT NULL;
CREATE INDEX IF NOT EXISTS watches_account_status ON watches (account_id, biz_status, created_at, id);
