-- How many businesses each account watches, kept with every add and removal, so registering one
-- costs the same whatever the list's size (counting the list on every add made 200,000 adds
-- quadratic).
CREATE TABLE IF NOT EXISTS watch_counts (
  account_id text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  n          integer NOT NULL CHECK (n >= 0)
);
INSERT INTO watch_counts (account_id, n)
SELECT account_id, count(*) FROM watches GROUP BY account_id
ON CONFLICT (account_id) DO UPDATE SET n = excluded.n;

-- GET /watch pages in creation order per account: by index, not a sort of the whole list.
CREATE INDEX IF NOT EXISTS watches_account_created ON watches (account_id, created_at, id);
