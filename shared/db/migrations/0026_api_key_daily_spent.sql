-- A project key's daily gateway counts also say what its requests took from the wallet (their Consume records), so a
-- finance admin reads spending per key (docs/identity.md, "Gateway usage"). A column with a constant default is added
-- without rewriting the table. The rows written before are filled once here from the Consume records of the request
-- logs they counted, under a SHARE lock on the request logs, as 0023's backfill: ledger batches wait before they insert
-- (a Consume record is written in its request log's transaction), so no batch is half summed. The lock comes FIRST, in
-- the ledger writer's order (request_logs, then this table): altering this table first deadlocked against a batch that
-- had locked request_logs and waited for it (test/concurrency/migration-lock-order.test.ts).
LOCK TABLE "request_logs" IN SHARE MODE;--> statement-breakpoint
ALTER TABLE "api_key_daily_gateway_usage" ADD COLUMN "spent" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "api_key_daily_gateway_usage" u
   SET "spent" = s."spent"
  FROM (SELECT l."api_key_id", (l."created_at" AT TIME ZONE 'UTC')::date AS "day", sum(c."amount") AS "spent"
          FROM "request_logs" l
          JOIN "wallet_records" c ON c."idempotency_key" = 'consume:' || l."id"::text
         WHERE l."api_key_id" IS NOT NULL
         GROUP BY 1, 2) s
 WHERE u."key_id" = s."api_key_id" AND u."day" = s."day" AND s."spent" <> 0;
