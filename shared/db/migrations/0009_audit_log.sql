CREATE TYPE "public"."audit_credential_kind" AS ENUM('session', 'api-key', 'system');--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_account_id" uuid,
	"actor_credential_kind" "audit_credential_kind" NOT NULL,
	"actor_credential_id" uuid,
	"organization_id" uuid,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"client_address" text,
	"correlation_id" text
);
--> statement-breakpoint
CREATE INDEX "audit_log_organization_idx" ON "audit_log" USING btree ("organization_id","occurred_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "audit_log"."organization_id" is not null;--> statement-breakpoint
CREATE INDEX "audit_log_occurred_idx" ON "audit_log" USING btree ("occurred_at" DESC NULLS LAST,"id" DESC NULLS LAST);