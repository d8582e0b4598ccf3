-- The table config/replay/example.csv's sessions write to, with three rows: the state a capture
-- began from. Load it into the database a replay targets (psql -d app_copy -f this file), or name
-- it as the dump --fresh restores before each trial (--fresh dump=config/replay/example.sql).
CREATE TABLE replay_t (n int, note text);
INSERT INTO replay_t VALUES (10, 'x'), (11, 'y'), (12, 'z');
