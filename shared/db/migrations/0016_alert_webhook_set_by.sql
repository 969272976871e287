ALTER TABLE "wallet_alert_settings" ADD COLUMN "webhook_set_by" uuid;--> statement-breakpoint
ALTER TABLE "wallet_alert_settings" ADD CONSTRAINT "wallet_alert_settings_webhook_set_by_accounts_id_fk" FOREIGN KEY ("webhook_set_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Webhooks chosen before the column existed count against the organization's creator (the best known account).
UPDATE "wallet_alert_settings" s SET "webhook_set_by" = o."created_by" FROM "organizations" o WHERE o."id" = s."organization_id" AND s."webhook_url" IS NOT NULL;
