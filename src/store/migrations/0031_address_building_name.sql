-- Buildings by their name (시군구용건물명), for addresses written by the building's name alone
-- ("정자동 한빛타워 1205호"). Most buildings have none, so the index holds only named ones.
CREATE INDEX IF NOT EXISTS address_directory_building_name ON address_directory (building_name) WHERE building_name <> '';
