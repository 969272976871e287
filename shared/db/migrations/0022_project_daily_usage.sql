-- A project's gateway requests per UTC day of their start, operation and model (count, tokens, what their Consume
-- records took), kept by the ledger writer as it inserts the request logs, so the console reads a project's usage as
-- at most a row per day, operation and model instead of every request log of the period (docs/gateway.md,
-- `GET /api/projects/{projectId}/usage`). The request logs written before this table are summed once here, under a
-- SHARE lock on them: ledger batches wait before they insert, so no batch is half summed (a Consume record is written
-- in its request log's transaction). No foreign key: like the request logs, rows outlive a deleted project.
CREATE TABLE "project_daily_usage" (
	"project_id" uuid NOT NULL,
	"day" date NOT NULL,
	"operation" text NOT NULL,
	"model" text NOT NULL,
	"request_count" integer NOT NULL,
	"input_tokens" bigint NOT NULL,
	"output_tokens" bigint NOT NULL,
	"spent" bigint NOT NULL,
	CONSTRAINT "project_daily_usage_project_id_day_operation_model_pk" PRIMARY KEY("project_id","day","operation","model")
);
--> statement-breakpoint
LOCK TABLE "request_logs" IN SHARE MODE;--> statement-breakpoint
INSERT INTO "project_daily_usage" ("project_id", "day", "operation", "model", "request_count", "input_tokens", "output_tokens", "spent")
SELECT l."project_id", (l."created_at" AT TIME ZONE 'UTC')::date, l."operation", coalesce(l."model", ''), count(*)::int,
       sum(l."input_tokens"), sum(l."output_tokens"), coalesce(sum(c."amount"), 0)
  FROM "request_logs" l
  LEFT JOIN "wallet_records" c ON c."idempotency_key" = 'consume:' || l."id"::text
 GROUP BY 1, 2, 3, 4;
