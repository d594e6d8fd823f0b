-- 공동주택구분 of the official files (1: 공동주택 — 아파트, 연립, 다세대): a building of many homes
-- whose name does not say so (a 다세대 without a name, a complex named by its brand) is still one
-- where a letter without 동/호 goes astray (issue: assessment that holds on real mail).
ALTER TABLE address_directory ADD COLUMN apartment boolean NOT NULL DEFAULT false;
