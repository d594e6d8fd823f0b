-- The local address directory: one row per building (도로명주소 DB, 건물관리번호 as key).
-- Indexes follow the three ways LocalDirectory asks: road + number, road name, lot number.
CREATE TABLE IF NOT EXISTS address_directory (
  building_id   TEXT PRIMARY KEY,
  zipcode       TEXT NOT NULL,
  sido          TEXT NOT NULL,
  sigungu       TEXT NOT NULL,
  eupmyeondong  TEXT NOT NULL,
  ri            TEXT NOT NULL,
  road_name     TEXT NOT NULL,
  underground   INTEGER NOT NULL CHECK (underground IN (0, 1)),
  building_main INTEGER NOT NULL,
  building_sub  INTEGER NOT NULL,
  mountain      INTEGER NOT NULL CHECK (mountain IN (0, 1)),
  jibun_main    INTEGER NOT NULL,
  jibun_sub     INTEGER NOT NULL,
  building_name TEXT NOT NULL,
  road_address  TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS address_directory_road ON address_directory (sigungu, road_name, building_main, building_sub);
CREATE INDEX IF NOT EXISTS address_directory_road_name ON address_directory (road_name);
CREATE INDEX IF NOT EXISTS address_directory_jibun ON address_directory (eupmyeondong, jibun_main, jibun_sub);
-- a lot written with its 리 (양근리 123) rather than its 읍/면; only rural rows have one
CREATE INDEX IF NOT EXISTS address_directory_ri_jibun ON address_directory (ri, jibun_main, jibun_sub) WHERE ri <> '';
