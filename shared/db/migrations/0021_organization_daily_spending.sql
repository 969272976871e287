-- What an organization's gateway requests took from its wallet per UTC day of their start, kept by the ledger writer
-- as it inserts the request logs, so the console's Overview reads a month as at most 31 rows instead of joining every
-- request log of the month to its Consume record (docs/wallet.md, `GET /api/organization/wallet/spending`). The
-- request logs written before this table are summed once here. Locks first, in a fixed order: the wallets (SHARE ROW
-- EXCLUSIVE, which the foreign key needs: recharges and refunds wait for the release; a ledger batch's FOR UPDATE of
-- its wallet row does not), then the request logs (SHARE: ledger batches wait before they insert, so no batch is half
-- summed; a Consume record is written in its request log's transaction). The foreign key is added after the backfill.
CREATE TABLE "organization_daily_spending" (
	"organization_id" uuid NOT NULL,
	"day" date NOT NULL,
	"request_count" integer NOT NULL,
	"spent" bigint NOT NULL,
	CONSTRAINT "organization_daily_spending_organization_id_day_pk" PRIMARY KEY("organization_id","day")
);
--> statement-breakpoint
LOCK TABLE "organization_wallets" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
LOCK TABLE "request_logs" IN SHARE MODE;--> statement-breakpoint
INSERT INTO "organization_daily_spending" ("organization_id", "day", "request_count", "spent")
SELECT l."organization_id", (l."created_at" AT TIME ZONE 'UTC')::date, count(*)::int, coalesce(sum(c."amount"), 0)
  FROM "request_logs" l
  LEFT JOIN "wallet_records" c ON c."idempotency_key" = 'consume:' || l."id"::text
 WHERE l."organization_id" IN (SELECT "organization_id" FROM "organization_wallets")
 GROUP BY 1, 2;--> statement-breakpoint
ALTER TABLE "organization_daily_spending" ADD CONSTRAINT "organization_daily_spending_organization_id_organization_wallets_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization_wallets"("organization_id") ON DELETE cascade ON UPDATE no action;
