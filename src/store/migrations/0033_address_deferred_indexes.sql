-- A first import into an empty directory loads its millions of rows without the secondary
-- indexes and builds them afterwards (sorting once is several times faster than inserting into
-- every index row by row). Their definitions wait here meanwhile, so an import that dies midway
-- leaves them to the next one to rebuild rather than lost.
CREATE TABLE IF NOT EXISTS address_deferred_indexes (
  name text PRIMARY KEY,
  ddl  text NOT NULL
);
