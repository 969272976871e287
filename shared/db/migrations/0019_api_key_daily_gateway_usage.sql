-- A project key's gateway requests per UTC day, kept by the ledger writer as it inserts the request logs, so the key
-- lists read a few rows per key instead of counting the key's request logs (docs/identity.md, "Gateway usage").
-- The request logs written before this table are counted once here. The locks come first and in a fixed order: the
-- keys (SHARE ROW EXCLUSIVE: a project or key deletion waits for the release, then cascades; adding the foreign key
-- first, then checking it row by row, deadlocked against a project deletion in a review), then the request logs
-- (SHARE: ledger batches wait; one of this release fails until the table is committed and is retried, one of the
-- release before inserts without counting, so stop the old workers first: docs/identity.md). The foreign key is added after
-- the backfill, under the same locks. Then request_logs_api_key_idx (0017), which served only the old count, goes.
CREATE TABLE "api_key_daily_gateway_usage" (
	"key_id" uuid NOT NULL,
	"day" date NOT NULL,
	"request_count" integer NOT NULL,
	CONSTRAINT "api_key_daily_gateway_usage_key_id_day_pk" PRIMARY KEY("key_id","day")
);
--> statement-breakpoint
LOCK TABLE "api_keys" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
LOCK TABLE "request_logs" IN SHARE MODE;--> statement-breakpoint
INSERT INTO "api_key_daily_gateway_usage" ("key_id", "day", "request_count")
SELECT r."api_key_id", (r."created_at" AT TIME ZONE 'UTC')::date, count(*)::int
  FROM "request_logs" r
 WHERE r."api_key_id" IN (SELECT "id" FROM "api_keys")
 GROUP BY 1, 2;--> statement-breakpoint
ALTER TABLE "api_key_daily_gateway_usage" ADD CONSTRAINT "api_key_daily_gateway_usage_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
DROP INDEX IF EXISTS "request_logs_api_key_idx";
