CREATE TYPE "public"."bulk_import_status" AS ENUM('Completed');--> statement-breakpoint
CREATE TYPE "public"."membership_status" AS ENUM('Active');--> statement-breakpoint
CREATE TYPE "public"."organization_role" AS ENUM('Admin', 'Member');--> statement-breakpoint
CREATE TYPE "public"."project_role" AS ENUM('Owner', 'Member');--> statement-breakpoint
CREATE TYPE "public"."project_status" AS ENUM('Active');--> statement-breakpoint
CREATE TYPE "public"."template_category" AS ENUM('Starter', 'Professional', 'Enterprise', 'Custom');--> statement-breakpoint
CREATE TYPE "public"."usage_period" AS ENUM('day', 'month');--> statement-breakpoint
CREATE TABLE "invite_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"description" text,
	"role" "organization_role" DEFAULT 'Member' NOT NULL,
	"email" text,
	"max_usage_count" integer DEFAULT 1 NOT NULL,
	"usage_count" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"bulk_import_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invite_tokens_usage_check" CHECK ("invite_tokens"."usage_count" >= 0 and "invite_tokens"."usage_count" <= "invite_tokens"."max_usage_count"),
	CONSTRAINT "invite_tokens_max_usage_check" CHECK ("invite_tokens"."max_usage_count" >= 1)
);
--> statement-breakpoint
CREATE TABLE "organization_bulk_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"created_by" uuid,
	"status" "bulk_import_status" DEFAULT 'Completed' NOT NULL,
	"total_count" integer NOT NULL,
	"success_count" integer NOT NULL,
	"failure_count" integer NOT NULL,
	"records" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organization_memberships" (
	"organization_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"role" "organization_role" DEFAULT 'Member' NOT NULL,
	"status" "membership_status" DEFAULT 'Active' NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_memberships_organization_id_account_id_pk" PRIMARY KEY("organization_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_members" (
	"project_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"role" "project_role" DEFAULT 'Member' NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_members_project_id_account_id_pk" PRIMARY KEY("project_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "project_quotas" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"daily_request_limit" bigint,
	"daily_token_limit" bigint,
	"monthly_request_limit" bigint,
	"monthly_token_limit" bigint,
	"requests_per_minute_limit" bigint,
	"enforce_quota" boolean DEFAULT true NOT NULL,
	"custom_reset_day" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_quotas_reset_day_check" CHECK ("project_quotas"."custom_reset_day" between 1 and 28),
	CONSTRAINT "project_quotas_limits_check" CHECK (coalesce("project_quotas"."daily_request_limit", 0) >= 0 and coalesce("project_quotas"."daily_token_limit", 0) >= 0
        and coalesce("project_quotas"."monthly_request_limit", 0) >= 0 and coalesce("project_quotas"."monthly_token_limit", 0) >= 0
        and coalesce("project_quotas"."requests_per_minute_limit", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "project_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid,
	"name" text NOT NULL,
	"description" text,
	"category" "template_category" NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_system" boolean DEFAULT false NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"usage_count" integer DEFAULT 0 NOT NULL,
	"icon" text,
	"config" jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_templates_owner_check" CHECK ("project_templates"."is_system" or "project_templates"."organization_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "project_usage_history" (
	"project_id" uuid NOT NULL,
	"period" "usage_period" NOT NULL,
	"period_start" date NOT NULL,
	"request_count" bigint NOT NULL,
	"token_count" bigint NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_usage_history_project_id_period_period_start_pk" PRIMARY KEY("project_id","period","period_start")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"status" "project_status" DEFAULT 'Active' NOT NULL,
	"template_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invite_tokens" ADD CONSTRAINT "invite_tokens_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invite_tokens" ADD CONSTRAINT "invite_tokens_bulk_import_id_organization_bulk_imports_id_fk" FOREIGN KEY ("bulk_import_id") REFERENCES "public"."organization_bulk_imports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invite_tokens" ADD CONSTRAINT "invite_tokens_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_bulk_imports" ADD CONSTRAINT "organization_bulk_imports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_bulk_imports" ADD CONSTRAINT "organization_bulk_imports_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_memberships" ADD CONSTRAINT "organization_memberships_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_memberships" ADD CONSTRAINT "organization_memberships_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_quotas" ADD CONSTRAINT "project_quotas_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_templates" ADD CONSTRAINT "project_templates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_templates" ADD CONSTRAINT "project_templates_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_usage_history" ADD CONSTRAINT "project_usage_history_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invite_tokens_token_hash_key" ON "invite_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "invite_tokens_org_idx" ON "invite_tokens" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "organization_bulk_imports_org_idx" ON "organization_bulk_imports" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "organization_memberships_account_idx" ON "organization_memberships" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "project_members_account_idx" ON "project_members" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "project_templates_system_name_key" ON "project_templates" USING btree ("name") WHERE "project_templates"."is_system";--> statement-breakpoint
CREATE INDEX "project_templates_org_idx" ON "project_templates" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "projects_org_idx" ON "projects" USING btree ("organization_id","created_at");--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;