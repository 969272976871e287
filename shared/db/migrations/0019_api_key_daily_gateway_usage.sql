-- A project key's gateway requests per UTC day, kept by the ledger writer as it inserts the request logs, so the key
-- lists read a few rows per key instead of counting the key's request logs (docs/identity.md, "Gateway usage").
-- The request logs written before this table are counted once here; the lock keeps ledger batches from inserting
-- between the count and the commit (they wait, then count their own rows). Then request_logs_api_key_idx (0017),
-- which served only that count, goes.
CREATE TABLE "api_key_daily_gateway_usage" (
	"key_id" uuid NOT NULL,
	"day" date NOT NULL,
	"request_count" integer NOT NULL,
	CONSTRAINT "api_key_daily_gateway_usage_key_id_day_pk" PRIMARY KEY("key_id","day")
);
--> statement-breakpoint
ALTER TABLE "api_key_daily_gateway_usage" ADD CONSTRAINT "api_key_daily_gateway_usage_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
LOCK TABLE "request_logs" IN SHARE MODE;--> statement-breakpoint
INSERT INTO "api_key_daily_gateway_usage" ("key_id", "day", "request_count")
SELECT r."api_key_id", (r."created_at" AT TIME ZONE 'UTC')::date, count(*)::int
  FROM "request_logs" r
 WHERE r."api_key_id" IN (SELECT "id" FROM "api_keys")
 GROUP BY 1, 2;--> statement-breakpoint
DROP INDEX "request_logs_api_key_idx";
