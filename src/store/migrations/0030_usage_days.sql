-- Lookups per account and Seoul day, for the console's usage chart. The month's counter
-- (usage_months) stays the one the quota is enforced on; a refund counts on the day it is given.
CREATE TABLE IF NOT EXISTS usage_days (
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  day        text NOT NULL,
  lookups    bigint NOT NULL DEFAULT 0 CHECK (lookups >= 0),
  PRIMARY KEY (account_id, day)
);
