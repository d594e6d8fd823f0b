-- The shared NTS call budget (src/store/upstream-budget-postgres.ts): one row per budget holding
-- the earliest time the next call may be sent. Every process reserves its slot with one UPDATE
-- of this row, so the spacing holds across all of them. The embedded store serves one process
-- and keeps its budget in memory, so it has no such table.
CREATE TABLE IF NOT EXISTS upstream_budget (
  name    text PRIMARY KEY,
  next_at timestamptz NOT NULL
);
