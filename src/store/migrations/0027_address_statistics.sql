-- A road's building by number in any 시군구 (a typo'd road looked for across the 시도, a wrong
-- 시군구) was read through every building with the road's name: 중앙로 alone has thousands. The
-- index by name and number answers it directly, and serves lookups by name alone as the old one did.
CREATE INDEX IF NOT EXISTS address_directory_road_number ON address_directory (road_name, building_main, building_sub);
DROP INDEX IF EXISTS address_directory_road_name;
-- Planner statistics for a directory imported before imports ended with them (address-store.ts
-- analyze): without them SQLite looks a lot up by every building of its 시군구.
ANALYZE address_directory;
