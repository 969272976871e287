CREATE TABLE "wallet_top_up_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code_hash" text NOT NULL,
	"code_hint" text NOT NULL,
	"batch_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"description" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"redeemed_at" timestamp with time zone,
	"redeemed_by" uuid,
	"organization_id" uuid,
	CONSTRAINT "wallet_top_up_codes_amount_positive" CHECK ("wallet_top_up_codes"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "video_tasks" ADD COLUMN "request_fingerprint" text;--> statement-breakpoint
ALTER TABLE "wallet_records" ADD COLUMN "top_up_code_id" uuid;--> statement-breakpoint
ALTER TABLE "wallet_top_up_codes" ADD CONSTRAINT "wallet_top_up_codes_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_top_up_codes" ADD CONSTRAINT "wallet_top_up_codes_redeemed_by_accounts_id_fk" FOREIGN KEY ("redeemed_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_top_up_codes" ADD CONSTRAINT "wallet_top_up_codes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_top_up_codes_hash_key" ON "wallet_top_up_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "wallet_top_up_codes_created_idx" ON "wallet_top_up_codes" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "wallet_top_up_codes_batch_idx" ON "wallet_top_up_codes" USING btree ("batch_id");--> statement-breakpoint
ALTER TABLE "wallet_records" ADD CONSTRAINT "wallet_records_top_up_code_id_wallet_top_up_codes_id_fk" FOREIGN KEY ("top_up_code_id") REFERENCES "public"."wallet_top_up_codes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_records_top_up_code_key" ON "wallet_records" USING btree ("top_up_code_id") WHERE "wallet_records"."top_up_code_id" is not null;