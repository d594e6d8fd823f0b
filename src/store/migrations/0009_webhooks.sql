-- Webhooks. One endpoint per account. An event is a delivery row written in the same transaction
-- as what caused it (a watch's history row, a job finishing); its id is the `webhook-id` every
-- attempt carries, so receivers can deduplicate. Deliveries are claimed with a lease like other
-- work; every attempt is logged.
CREATE TABLE IF NOT EXISTS webhook_endpoints (
  account_id      text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  url             text NOT NULL,
  secret          text NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  disabled_at     timestamptz,
  disabled_reason text
);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id               text PRIMARY KEY,
  account_id       text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  type             text NOT NULL,
  body             text NOT NULL,
  state            text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'abandoned')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz,
  lease_holder     text,
  lease_expires_at timestamptz,
  last_status      integer,
  last_error       text,
  created_at       timestamptz NOT NULL,
  finished_at      timestamptz
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_account ON webhook_deliveries (account_id, created_at, id);

CREATE TABLE IF NOT EXISTS webhook_attempts (
  id           bigserial PRIMARY KEY,
  delivery_id  text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt      integer NOT NULL,
  at           timestamptz NOT NULL,
  url          text NOT NULL,
  status       integer,
  error        text,
  duration_ms  integer NOT NULL,
  UNIQUE (delivery_id, attempt)
);
