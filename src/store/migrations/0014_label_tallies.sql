-- Each account's recorded outcomes per business number and per address, kept up to date in the
-- transaction that writes a label (LabelStore.put), so that scoring reads two rows however many
-- labels the account holds (counting them per row scanned the account's labels).
CREATE TABLE IF NOT EXISTS label_tallies (
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  kind       text NOT NULL CHECK (kind IN ('b_no', 'address')),
  value      text NOT NULL,
  bounced    integer NOT NULL CHECK (bounced >= 0),
  delivered  integer NOT NULL CHECK (delivered >= 0),
  PRIMARY KEY (account_id, kind, value)
) /*[sqlite] WITHOUT ROWID*/;

INSERT INTO label_tallies (account_id, kind, value, bounced, delivered)
SELECT account_id, 'b_no', b_no, sum(CASE WHEN bounced THEN 1 ELSE 0 END), sum(CASE WHEN bounced THEN 0 ELSE 1 END)
  FROM labels GROUP BY account_id, b_no;
INSERT INTO label_tallies (account_id, kind, value, bounced, delivered)
SELECT account_id, 'address', address_key, sum(CASE WHEN bounced THEN 1 ELSE 0 END), sum(CASE WHEN bounced THEN 0 ELSE 1 END)
  FROM labels WHERE address_key IS NOT NULL GROUP BY account_id, address_key;
