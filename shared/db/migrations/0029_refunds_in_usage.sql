-- A refund now takes what it gave back from the daily usage rows of the refunded request's key and project (the
-- request's UTC day; shared/wallet/refund-usage.ts), so their `spent` is net of refunds. The refunds made before are
-- taken here once, under a SHARE lock on the request logs taken first, in the ledger writer's order (request_logs,
-- then the usage tables; migration 0026's lesson, test/concurrency/migration-lock-order.test.ts). A refund made by
-- the previous release while this runs waits for the wallet lock order as usual; one made by a process of the previous
-- release after this migration is not taken (upgrade the API processes together). The refunds are found by the partial
-- index wallet_records_refund_of_key (every Refund names its Consume, and only a Refund names one: refunds.ts):
-- `"type" = 'Refund'` read every wallet record under that lock, 26-28 s a statement at 5 million records (review
-- round 21), every ledger write and refund waiting; the same statements by the index: 13-18 ms.
LOCK TABLE "request_logs" IN SHARE MODE;--> statement-breakpoint
UPDATE "api_key_daily_gateway_usage" u
   SET "spent" = greatest(u."spent" - s."refunded", 0)
  FROM (SELECT l."api_key_id", (l."created_at" AT TIME ZONE 'UTC')::date AS "day", sum(f."amount") AS "refunded"
          FROM (SELECT "request_log_id"::uuid AS "id", "amount" FROM "wallet_records"
                 WHERE "refund_of" IS NOT NULL AND "request_log_id" ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                OFFSET 0) f
          JOIN "request_logs" l ON l."id" = f."id" AND l."api_key_id" IS NOT NULL
         GROUP BY 1, 2) s
 WHERE u."key_id" = s."api_key_id" AND u."day" = s."day";--> statement-breakpoint
UPDATE "project_daily_usage" p
   SET "spent" = greatest(p."spent" - s."refunded", 0)
  FROM (SELECT l."project_id", (l."created_at" AT TIME ZONE 'UTC')::date AS "day", l."operation",
               coalesce(l."model", '') AS "model", sum(f."amount") AS "refunded"
          FROM (SELECT "request_log_id"::uuid AS "id", "amount" FROM "wallet_records"
                 WHERE "refund_of" IS NOT NULL AND "request_log_id" ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                OFFSET 0) f
          JOIN "request_logs" l ON l."id" = f."id"
         GROUP BY 1, 2, 3, 4) s
 WHERE p."project_id" = s."project_id" AND p."day" = s."day" AND p."operation" = s."operation" AND p."model" = s."model";
