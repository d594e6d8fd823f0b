-- The local address directory: one row per building (도로명주소 DB, 건물관리번호 as key).
-- Indexes follow the three ways LocalDirectory asks: road + number, road name, lot number.
CREATE TABLE IF NOT EXISTS address_directory (
  building_id   text PRIMARY KEY,
  zipcode       text NOT NULL,
  sido          text NOT NULL,
  sigungu       text NOT NULL,
  eupmyeondong  text NOT NULL,
  ri            text NOT NULL,
  road_name     text NOT NULL,
  underground   boolean NOT NULL,
  building_main integer NOT NULL,
  building_sub  integer NOT NULL,
  mountain      boolean NOT NULL,
  jibun_main    integer NOT NULL,
  jibun_sub     integer NOT NULL,
  building_name text NOT NULL,
  road_address  text NOT NULL
);

CREATE INDEX IF NOT EXISTS address_directory_road ON address_directory (sigungu, road_name, building_main, building_sub);
CREATE INDEX IF NOT EXISTS address_directory_road_name ON address_directory (road_name);
CREATE INDEX IF NOT EXISTS address_directory_jibun ON address_directory (eupmyeondong, jibun_main, jibun_sub);
-- a lot written with its 리 (양근리 123) rather than its 읍/면; only rural rows have one
CREATE INDEX IF NOT EXISTS address_directory_ri_jibun ON address_directory (ri, jibun_main, jibun_sub) WHERE ri <> '';
