-- A rotated balance-alert webhook secret keeps signing beside the new one for 24 hours (docs/wallet.md, "Webhook signatures").
ALTER TABLE "wallet_alert_settings" ADD COLUMN "previous_webhook_secret" text;--> statement-breakpoint
ALTER TABLE "wallet_alert_settings" ADD COLUMN "previous_webhook_secret_until" timestamp with time zone;