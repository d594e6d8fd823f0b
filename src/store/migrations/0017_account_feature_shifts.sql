-- Each account's shifts of feature weights beside its intercept shift (fitAccountAdjustment):
-- accounts differ in how signals matter, not only in their base rate. NULL reads as none.
ALTER TABLE account_model_offsets ADD COLUMN /*[postgres] IF NOT EXISTS*/ weights jsonb;
