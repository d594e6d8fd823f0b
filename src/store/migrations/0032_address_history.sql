-- What the official files say besides a building's current address (issue: addresses as the
-- carrier reads them):
-- 건축물대장건물명, the building's name in the building register: offices write it as often as
-- the 시군구용건물명 the directory already holds.
ALTER TABLE address_directory ADD COLUMN register_name text NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS address_directory_register_name ON address_directory (register_name) WHERE register_name <> '';

-- 관련지번 (jibun_rnaddrkor_*.txt): a building stands on more lots than the one its row names,
-- and an old 지번 address may name any of them.
CREATE TABLE IF NOT EXISTS address_related_lots (
  building_id  text NOT NULL,
  sido         text NOT NULL,
  sigungu      text NOT NULL,
  eupmyeondong text NOT NULL,
  ri           text NOT NULL,
  mountain     boolean NOT NULL,
  jibun_main   integer NOT NULL,
  jibun_sub    integer NOT NULL,
  PRIMARY KEY (building_id, eupmyeondong, ri, mountain, jibun_main, jibun_sub)
);
CREATE INDEX IF NOT EXISTS address_related_lots_jibun ON address_related_lots (eupmyeondong, jibun_main, jibun_sub);
CREATE INDEX IF NOT EXISTS address_related_lots_ri_jibun ON address_related_lots (ri, jibun_main, jibun_sub) WHERE ri <> '';

-- The road address a building had before its road was renamed or renumbered (the files'
-- 이전도로명주소, or the row a change file replaced): lists written before the change still
-- name it, and carriers still deliver to it.
CREATE TABLE IF NOT EXISTS address_former_roads (
  building_id   text NOT NULL,
  sigungu       text NOT NULL,
  road_name     text NOT NULL,
  underground   boolean NOT NULL,
  building_main integer NOT NULL,
  building_sub  integer NOT NULL,
  PRIMARY KEY (building_id, road_name, underground, building_main, building_sub)
);
CREATE INDEX IF NOT EXISTS address_former_roads_road ON address_former_roads (road_name, building_main, building_sub);
