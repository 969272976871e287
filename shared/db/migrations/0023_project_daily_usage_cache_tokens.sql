-- A project's usage per day, operation and model also counts the input tokens read from the prompt cache and written
-- to it (both TTLs), as its request logs do (docs/organizations.md, `GET /api/projects/{projectId}/usage`). A column
-- with a constant default is added without rewriting the table. The rows written before are filled once here from the
-- request logs they summed, under a SHARE lock on them, as 0022's backfill: ledger batches wait before they insert, so
-- no batch is half summed.
ALTER TABLE "project_daily_usage" ADD COLUMN "cache_read_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "project_daily_usage" ADD COLUMN "cache_write_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
LOCK TABLE "request_logs" IN SHARE MODE;--> statement-breakpoint
UPDATE "project_daily_usage" u
   SET "cache_read_tokens" = s."cache_read_tokens", "cache_write_tokens" = s."cache_write_tokens"
  FROM (SELECT l."project_id", (l."created_at" AT TIME ZONE 'UTC')::date AS "day", l."operation",
               coalesce(l."model", '') AS "model", sum(l."cache_read_tokens") AS "cache_read_tokens",
               sum(l."cache_write_tokens") AS "cache_write_tokens"
          FROM "request_logs" l
         GROUP BY 1, 2, 3, 4) s
 WHERE u."project_id" = s."project_id" AND u."day" = s."day" AND u."operation" = s."operation"
   AND u."model" = s."model"
   AND (s."cache_read_tokens" <> 0 OR s."cache_write_tokens" <> 0);
