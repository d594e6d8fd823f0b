-- Of the bounces tallied per number and address, those whose 반송 사유 says the business is gone
-- (moved, unknown recipient, closed, deceased) and those that say only that nobody was in or it
-- was refused: the next letter to a business that left comes back, to one that was out may not.
ALTER TABLE label_tallies ADD COLUMN /*[postgres] IF NOT EXISTS*/ gone integer NOT NULL DEFAULT 0 CHECK (gone >= 0);
ALTER TABLE label_tallies ADD COLUMN /*[postgres] IF NOT EXISTS*/ absent integer NOT NULL DEFAULT 0 CHECK (absent >= 0);

-- Labels carry a cause only since 0015: one statement per kind, each counting through the index
-- on (account_id, b_no) or (account_id, address_key), and only for tallies that have such a label.
UPDATE label_tallies SET
  gone = (SELECT count(*) FROM labels l WHERE l.account_id = label_tallies.account_id AND l.b_no = label_tallies.value
           AND l.bounced AND l.cause IN ('moved', 'unknown_recipient', 'closed', 'deceased')),
  absent = (SELECT count(*) FROM labels l WHERE l.account_id = label_tallies.account_id AND l.b_no = label_tallies.value
           AND l.bounced AND l.cause IN ('nobody_home', 'refused'))
WHERE kind = 'b_no' AND EXISTS (SELECT 1 FROM labels l WHERE l.account_id = label_tallies.account_id AND l.b_no = label_tallies.value AND l.cause IS NOT NULL);

UPDATE label_tallies SET
  gone = (SELECT count(*) FROM labels l WHERE l.account_id = label_tallies.account_id AND l.address_key = label_tallies.value
           AND l.bounced AND l.cause IN ('moved', 'unknown_recipient', 'closed', 'deceased')),
  absent = (SELECT count(*) FROM labels l WHERE l.account_id = label_tallies.account_id AND l.address_key = label_tallies.value
           AND l.bounced AND l.cause IN ('nobody_home', 'refused'))
WHERE kind = 'address' AND EXISTS (SELECT 1 FROM labels l WHERE l.account_id = label_tallies.account_id AND l.address_key = label_tallies.value AND l.cause IS NOT NULL);
