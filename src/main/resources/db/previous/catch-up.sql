-- Brings a store written before versioned migrations (no flyway_schema_history) up to the tables of
-- V1__store_schema.sql before it is baselined at version 1: the changes that version's classes made
-- on every start to stores created by still older releases ("added after the table was first
-- released"), each a no-op where it was made already or where the table is missing (V1, run next,
-- creates a missing table whole). Run once per such store by StoreSchema, never by Flyway.

-- Store
ALTER TABLE IF EXISTS sb_escalation ADD COLUMN IF NOT EXISTS reason VARCHAR(32);
ALTER TABLE IF EXISTS sb_item ADD COLUMN IF NOT EXISTS input_sha256 VARCHAR(64);
ALTER TABLE IF EXISTS sb_item ADD COLUMN IF NOT EXISTS carry VARCHAR(16);
ALTER TABLE IF EXISTS sb_item ADD COLUMN IF NOT EXISTS carried_from BIGINT;
ALTER TABLE IF EXISTS sb_item ADD COLUMN IF NOT EXISTS carried_runs INT;
ALTER TABLE IF EXISTS sb_item ADD COLUMN IF NOT EXISTS covered_sha256 VARCHAR(64);
ALTER TABLE IF EXISTS sb_run ADD COLUMN IF NOT EXISTS exported_at TIMESTAMP;
ALTER TABLE IF EXISTS sb_run ADD COLUMN IF NOT EXISTS exported_status VARCHAR(32);
ALTER TABLE IF EXISTS sb_fingerprint ADD COLUMN IF NOT EXISTS verification_sha256 VARCHAR(64);
ALTER TABLE IF EXISTS sb_fingerprint ADD COLUMN IF NOT EXISTS prompts_sha256 VARCHAR(64);
ALTER TABLE IF EXISTS sb_fingerprint ADD COLUMN IF NOT EXISTS carry_sources VARCHAR;

-- LoopStore
ALTER TABLE IF EXISTS sb_round ALTER COLUMN decision SET DATA TYPE VARCHAR(64);
ALTER TABLE IF EXISTS sb_round ADD COLUMN IF NOT EXISTS acceptance_number INT;
ALTER TABLE IF EXISTS sb_round ADD COLUMN IF NOT EXISTS failures INT;
ALTER TABLE IF EXISTS sb_sample ADD COLUMN IF NOT EXISTS covered BOOLEAN DEFAULT FALSE NOT NULL;
ALTER TABLE IF EXISTS sb_review ADD COLUMN IF NOT EXISTS issues_reattributed INT DEFAULT 0 NOT NULL;
ALTER TABLE IF EXISTS sb_review ADD COLUMN IF NOT EXISTS issues_derived INT DEFAULT 0 NOT NULL;

-- SpendStore
ALTER TABLE IF EXISTS sb_match_stat ADD COLUMN IF NOT EXISTS found BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE IF EXISTS sb_match_stat ADD COLUMN IF NOT EXISTS method VARCHAR(32) DEFAULT '' NOT NULL;
ALTER TABLE IF EXISTS sb_match_stat ADD COLUMN IF NOT EXISTS offline_checks BIGINT DEFAULT 0 NOT NULL;

-- LearnedRuleStore
ALTER TABLE IF EXISTS sb_learned_review ADD COLUMN IF NOT EXISTS issues_reattributed INT DEFAULT 0 NOT NULL;
ALTER TABLE IF EXISTS sb_learned_review ADD COLUMN IF NOT EXISTS issues_derived INT DEFAULT 0 NOT NULL;
ALTER TABLE IF EXISTS sb_learned_review ADD COLUMN IF NOT EXISTS fail_issues VARCHAR;

-- SemanticSchema: columns added later, indexes and a table replaced
ALTER TABLE IF EXISTS sm_frozen ADD COLUMN IF NOT EXISTS lsh_extra_rows INT DEFAULT 0 NOT NULL;
ALTER TABLE IF EXISTS sm_rev_band ADD COLUMN IF NOT EXISTS vid BIGINT;
DROP INDEX IF EXISTS sm_rev_band_lookup;
DROP INDEX IF EXISTS sm_rev_band_cover;
DROP INDEX IF EXISTS sm_vector_item;
DROP INDEX IF EXISTS sm_rev_passage_item;
DROP TABLE IF EXISTS sm_probe;
