-- One counter per account and Seoul calendar month ('YYYY-MM'). `used` is what the plan's
-- quota covers; `overage` is what paid batch jobs ran beyond it.
CREATE TABLE IF NOT EXISTS usage_months (
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  month      text NOT NULL,
  used       bigint NOT NULL DEFAULT 0 CHECK (used >= 0),
  overage    bigint NOT NULL DEFAULT 0 CHECK (overage >= 0),
  PRIMARY KEY (account_id, month)
);
