CREATE TYPE "public"."wallet_alert_channel" AS ENUM('email', 'webhook');--> statement-breakpoint
CREATE TYPE "public"."wallet_alert_channel_status" AS ENUM('pending', 'sending', 'sent', 'failed', 'disabled', 'no_recipients', 'capped', 'not_configured');--> statement-breakpoint
CREATE TYPE "public"."wallet_alert_kind" AS ENUM('balance', 'test');--> statement-breakpoint
CREATE TYPE "public"."wallet_record_type" AS ENUM('Recharge', 'Consume', 'Refund');--> statement-breakpoint
CREATE TYPE "public"."wallet_reservation_status" AS ENUM('held', 'settled', 'released', 'expired');--> statement-breakpoint
CREATE TABLE "organization_wallets" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	"frozen_amount" bigint DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"record_seq" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_wallets_balance_not_negative" CHECK ("organization_wallets"."balance" >= 0),
	CONSTRAINT "organization_wallets_frozen_not_negative" CHECK ("organization_wallets"."frozen_amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "wallet_alert_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL,
	"channel" "wallet_alert_channel" NOT NULL,
	"attempt" integer NOT NULL,
	"succeeded" boolean NOT NULL,
	"status_code" integer,
	"error" text,
	"target" text,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_alert_settings" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"email_alert_enabled" boolean DEFAULT true NOT NULL,
	"max_daily_alerts" integer DEFAULT 3 NOT NULL,
	"last_alert_time" timestamp with time zone,
	"webhook_url" text,
	"custom_headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"message_template" text NOT NULL,
	"thresholds" jsonb NOT NULL,
	"webhook_secret" text NOT NULL,
	"email_day" date,
	"email_count" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_alert_settings_max_daily_not_negative" CHECK ("wallet_alert_settings"."max_daily_alerts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "wallet_balance_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"kind" "wallet_alert_kind" DEFAULT 'balance' NOT NULL,
	"threshold" bigint NOT NULL,
	"balance" bigint NOT NULL,
	"currency" text NOT NULL,
	"record_id" uuid,
	"requested_by" uuid,
	"email_status" "wallet_alert_channel_status" DEFAULT 'pending' NOT NULL,
	"email_sent_at" timestamp with time zone,
	"webhook_status" "wallet_alert_channel_status" DEFAULT 'pending' NOT NULL,
	"webhook_delivered_at" timestamp with time zone,
	"enqueued_at" timestamp with time zone,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"type" "wallet_record_type" NOT NULL,
	"amount" bigint NOT NULL,
	"previous_balance" bigint NOT NULL,
	"current_balance" bigint NOT NULL,
	"description" text,
	"request_log_id" text,
	"refund_of" uuid,
	"reservation_id" uuid,
	"idempotency_key" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_records_amount_positive" CHECK ("wallet_records"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "wallet_reservations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"request_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" "wallet_reservation_status" DEFAULT 'held' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"charged_amount" bigint,
	"uncollected_amount" bigint,
	"record_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "wallet_reservations_amount_positive" CHECK ("wallet_reservations"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "organization_wallets" ADD CONSTRAINT "organization_wallets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_alert_deliveries" ADD CONSTRAINT "wallet_alert_deliveries_alert_id_wallet_balance_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."wallet_balance_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_alert_settings" ADD CONSTRAINT "wallet_alert_settings_organization_id_organization_wallets_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization_wallets"("organization_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_balance_alerts" ADD CONSTRAINT "wallet_balance_alerts_organization_id_organization_wallets_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization_wallets"("organization_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_balance_alerts" ADD CONSTRAINT "wallet_balance_alerts_record_id_wallet_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."wallet_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_balance_alerts" ADD CONSTRAINT "wallet_balance_alerts_requested_by_accounts_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_records" ADD CONSTRAINT "wallet_records_organization_id_organization_wallets_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization_wallets"("organization_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_records" ADD CONSTRAINT "wallet_records_refund_of_wallet_records_id_fk" FOREIGN KEY ("refund_of") REFERENCES "public"."wallet_records"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_records" ADD CONSTRAINT "wallet_records_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_reservations" ADD CONSTRAINT "wallet_reservations_organization_id_organization_wallets_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization_wallets"("organization_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_reservations" ADD CONSTRAINT "wallet_reservations_record_id_wallet_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."wallet_records"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wallet_alert_deliveries_alert_idx" ON "wallet_alert_deliveries" USING btree ("alert_id","attempted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_balance_alerts_crossing_key" ON "wallet_balance_alerts" USING btree ("record_id","threshold");--> statement-breakpoint
CREATE INDEX "wallet_balance_alerts_org_idx" ON "wallet_balance_alerts" USING btree ("organization_id","occurred_at");--> statement-breakpoint
CREATE INDEX "wallet_balance_alerts_unqueued_idx" ON "wallet_balance_alerts" USING btree ("occurred_at") WHERE "wallet_balance_alerts"."enqueued_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_records_org_seq_key" ON "wallet_records" USING btree ("organization_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_records_idempotency_key" ON "wallet_records" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_records_refund_of_key" ON "wallet_records" USING btree ("refund_of") WHERE "wallet_records"."refund_of" is not null;--> statement-breakpoint
CREATE INDEX "wallet_records_org_type_seq_idx" ON "wallet_records" USING btree ("organization_id","type","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_reservations_request_key" ON "wallet_reservations" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "wallet_reservations_held_expiry_idx" ON "wallet_reservations" USING btree ("expires_at") WHERE "wallet_reservations"."status" = 'held';