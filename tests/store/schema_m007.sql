-- The schema as migrations m001..m007 left it (before derived rows had versions),
-- dumped from a database that code made: an old database is built from this, not
-- from today's migrations.
CREATE TABLE "_sqlite_migrations" (
   "id" INTEGER PRIMARY KEY,
   "migration_set" TEXT,
   "name" TEXT,
   "applied_at" TEXT
);
CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"
    ON "_sqlite_migrations" ("migration_set", "name");
CREATE TABLE "matches" (
   "id" INTEGER PRIMARY KEY,
   "game" TEXT NOT NULL,
   "players" TEXT NOT NULL,
   "settings" TEXT NOT NULL,
   "first_dealer" INTEGER NOT NULL,
   "date" TEXT,
   "note" TEXT,
   "created_at" TEXT NOT NULL,
   "updated_at" TEXT NOT NULL,
   "version" INTEGER NOT NULL DEFAULT 1
, "scorer_token" TEXT, "watcher_token" TEXT, "deleted_at" TEXT, "previous_id" INTEGER);
CREATE TABLE "hands" (
   "match_id" INTEGER REFERENCES "matches"("id"),
   "position" INTEGER,
   "data" TEXT NOT NULL,
   PRIMARY KEY ("match_id", "position")
);
CREATE TABLE "audit" (
   "id" INTEGER PRIMARY KEY,
   "match_id" INTEGER REFERENCES "matches"("id"),
   "at" TEXT,
   "action" TEXT,
   "hand" INTEGER,
   "before" TEXT,
   "after" TEXT,
   "totals_before" TEXT,
   "totals_after" TEXT,
   "version" INTEGER
, "request_key" TEXT);
CREATE INDEX "idx_audit_match_id_id"
    ON "audit" ("match_id", "id");
CREATE UNIQUE INDEX "idx_matches_scorer_token"
    ON "matches" ("scorer_token");
CREATE UNIQUE INDEX "idx_matches_watcher_token"
    ON "matches" ("watcher_token");
CREATE INDEX "idx_audit_match_id_request_key"
    ON "audit" ("match_id", "request_key");
CREATE TABLE "devices" (
   "id" TEXT PRIMARY KEY,
   "created_at" TEXT NOT NULL,
   "seen_at" TEXT
);
CREATE TABLE "device_matches" (
   "device_id" TEXT REFERENCES "devices"("id"),
   "match_id" INTEGER REFERENCES "matches"("id"),
   "score" INTEGER NOT NULL DEFAULT 0,
   "watch" INTEGER NOT NULL DEFAULT 0,
   "how" TEXT,
   "added_at" TEXT,
   PRIMARY KEY ("device_id", "match_id")
);
CREATE INDEX "idx_device_matches_match_id"
    ON "device_matches" ("match_id");
CREATE TABLE "summaries" (
   "match_id" INTEGER PRIMARY KEY REFERENCES "matches"("id"),
   "hands" INTEGER,
   "finished" INTEGER,
   "winners" TEXT,
   "totals" TEXT,
   "names" TEXT,
   "imported" INTEGER DEFAULT 0
);
CREATE INDEX "idx_summaries_finished"
    ON "summaries" ("finished");
CREATE INDEX "idx_matches_previous_id"
    ON "matches" ("previous_id");
CREATE TABLE "match_players" (
   "match_id" INTEGER REFERENCES "matches"("id"),
   "seat" INTEGER,
   "name" TEXT,
   "name_key" TEXT,
   "game" TEXT,
   "finished" INTEGER,
   "won" INTEGER,
   "place" INTEGER,
   "hands" INTEGER,
   "facts" TEXT,
   "figures" TEXT,
   PRIMARY KEY ("match_id", "seat")
);
CREATE INDEX "idx_match_players_name_key"
    ON "match_players" ("name_key");
INSERT INTO "_sqlite_migrations" ("migration_set", "name", "applied_at") VALUES
  ('scorekeeper', 'm001_initial', '2026-01-01 00:00:00+00:00'),
  ('scorekeeper', 'm002_share_links_and_request_keys', '2026-01-01 00:00:00+00:00'),
  ('scorekeeper', 'm003_devices_and_summaries', '2026-01-01 00:00:00+00:00'),
  ('scorekeeper', 'm004_deleted_matches', '2026-01-01 00:00:00+00:00'),
  ('scorekeeper', 'm005_play_again', '2026-01-01 00:00:00+00:00'),
  ('scorekeeper', 'm006_player_stats', '2026-01-01 00:00:00+00:00'),
  ('scorekeeper', 'm007_name_keys_ignore_invisible', '2026-01-01 00:00:00+00:00');
