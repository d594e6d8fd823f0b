-- The cause a label's 반송 사유 names (return-reason.ts: moved, nobody_home, …), so refits can
-- learn moved-away and nobody-there apart. Labels recorded before it keep their reason text only.
ALTER TABLE labels ADD COLUMN /*[postgres] IF NOT EXISTS*/ cause text;
