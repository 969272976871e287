ALTER TABLE "wallet_reservations" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "wallet_reservations" CASCADE;--> statement-breakpoint
ALTER TABLE "organization_wallets" DROP CONSTRAINT "organization_wallets_frozen_not_negative";--> statement-breakpoint
ALTER TABLE "video_tasks" DROP COLUMN "reservation_id";--> statement-breakpoint
ALTER TABLE "organization_wallets" DROP COLUMN "frozen_amount";--> statement-breakpoint
ALTER TABLE "wallet_records" DROP COLUMN "reservation_id";--> statement-breakpoint
DROP TYPE "public"."wallet_reservation_status";