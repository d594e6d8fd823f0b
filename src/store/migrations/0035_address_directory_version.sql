-- A count every write to the directory's tables raises (address-store.ts). LocalDirectory keeps
-- what it read of the directory in memory (the building numbers of each 시군구's roads, the
-- names of former roads) and asks this, one row, at most once a second: an import's changes
-- reach it within that second, in whichever process it ran.
CREATE TABLE IF NOT EXISTS address_directory_version (
  id      integer PRIMARY KEY CHECK (id = 1),
  version bigint NOT NULL
);
INSERT INTO address_directory_version (id, version) VALUES (1, 0) ON CONFLICT DO NOTHING;
