CREATE TYPE "public"."catalog_item_status" AS ENUM('draft', 'in_review', 'published', 'changes_requested', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."catalog_item_type" AS ENUM('mcp', 'skill', 'agent', 'soul');--> statement-breakpoint
CREATE TYPE "public"."catalog_report_status" AS ENUM('open', 'resolved');--> statement-breakpoint
CREATE TYPE "public"."catalog_version_status" AS ENUM('draft', 'in_review', 'published', 'changes_requested', 'rejected', 'superseded');--> statement-breakpoint
CREATE TABLE "catalog_categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" "catalog_item_type" NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalog_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" "catalog_item_type" NOT NULL,
	"slug" text NOT NULL,
	"publisher_id" uuid NOT NULL,
	"name" text NOT NULL,
	"summary" text NOT NULL,
	"description" text NOT NULL,
	"icon_url" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" "catalog_item_status" DEFAULT 'draft' NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"current_version_id" uuid,
	"published_at" timestamp with time zone,
	"pending_changes" jsonb,
	"primary_transport" text,
	"tool_count" integer,
	"executes_code" boolean,
	"view_count" integer DEFAULT 0 NOT NULL,
	"install_count" integer DEFAULT 0 NOT NULL,
	"usage_count" integer DEFAULT 0 NOT NULL,
	"favorite_count" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_average" double precision GENERATED ALWAYS AS (case when rating_count = 0 then 0 else rating_sum::double precision / rating_count end) STORED NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, name || ' ' || replace(slug, '-', ' ')), 'A') || setweight(to_tsvector('english'::regconfig, summary), 'B') || setweight(to_tsvector('english'::regconfig, description), 'C')) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalog_items_counters_check" CHECK ("catalog_items"."rating_count" >= 0 and "catalog_items"."rating_sum" >= 0)
);
--> statement-breakpoint
CREATE TABLE "catalog_ratings" (
	"item_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"score" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalog_ratings_item_id_account_id_pk" PRIMARY KEY("item_id","account_id"),
	CONSTRAINT "catalog_ratings_score_check" CHECK ("catalog_ratings"."score" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "catalog_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"item_id" uuid NOT NULL,
	"reporter_account_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"detail" text,
	"status" "catalog_report_status" DEFAULT 'open' NOT NULL,
	"resolution" text,
	"resolved_by" uuid,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalog_transitions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"item_id" uuid NOT NULL,
	"version_id" uuid,
	"actor_account_id" uuid,
	"action" text NOT NULL,
	"from_status" "catalog_item_status",
	"to_status" "catalog_item_status" NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalog_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"item_id" uuid NOT NULL,
	"version" text NOT NULL,
	"status" "catalog_version_status" DEFAULT 'draft' NOT NULL,
	"changelog" text,
	"readme" text,
	"license" text,
	"source_url" text,
	"payload" jsonb,
	"bundle_storage_key" text,
	"bundle_sha256" text,
	"bundle_size_bytes" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "publishers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"owner_account_id" uuid NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalog_items" ADD CONSTRAINT "catalog_items_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_items" ADD CONSTRAINT "catalog_items_current_version_id_catalog_versions_id_fk" FOREIGN KEY ("current_version_id") REFERENCES "public"."catalog_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_ratings" ADD CONSTRAINT "catalog_ratings_item_id_catalog_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."catalog_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_ratings" ADD CONSTRAINT "catalog_ratings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_reports" ADD CONSTRAINT "catalog_reports_item_id_catalog_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."catalog_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_reports" ADD CONSTRAINT "catalog_reports_reporter_account_id_accounts_id_fk" FOREIGN KEY ("reporter_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_reports" ADD CONSTRAINT "catalog_reports_resolved_by_accounts_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_transitions" ADD CONSTRAINT "catalog_transitions_item_id_catalog_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."catalog_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_transitions" ADD CONSTRAINT "catalog_transitions_version_id_catalog_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."catalog_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_transitions" ADD CONSTRAINT "catalog_transitions_actor_account_id_accounts_id_fk" FOREIGN KEY ("actor_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_versions" ADD CONSTRAINT "catalog_versions_item_id_catalog_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."catalog_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publishers" ADD CONSTRAINT "publishers_owner_account_id_accounts_id_fk" FOREIGN KEY ("owner_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "catalog_categories_type_slug_key" ON "catalog_categories" USING btree ("type","slug");--> statement-breakpoint
CREATE UNIQUE INDEX "catalog_items_type_slug_key" ON "catalog_items" USING btree ("type","slug");--> statement-breakpoint
CREATE INDEX "catalog_items_publisher_idx" ON "catalog_items" USING btree ("publisher_id");--> statement-breakpoint
CREATE INDEX "catalog_items_in_review_idx" ON "catalog_items" USING btree ("type","updated_at") WHERE "catalog_items"."status" = 'in_review';--> statement-breakpoint
CREATE INDEX "catalog_items_latest_idx" ON "catalog_items" USING btree ("type","published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "catalog_items"."current_version_id" is not null;--> statement-breakpoint
CREATE INDEX "catalog_items_popular_idx" ON "catalog_items" USING btree ("type","install_count" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "catalog_items"."current_version_id" is not null;--> statement-breakpoint
CREATE INDEX "catalog_items_usage_idx" ON "catalog_items" USING btree ("type","usage_count" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "catalog_items"."current_version_id" is not null;--> statement-breakpoint
CREATE INDEX "catalog_items_rating_idx" ON "catalog_items" USING btree ("type","rating_average" DESC NULLS LAST,"rating_count" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "catalog_items"."current_version_id" is not null;--> statement-breakpoint
CREATE INDEX "catalog_items_featured_idx" ON "catalog_items" USING btree ("type","is_featured" DESC NULLS LAST,"published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "catalog_items"."current_version_id" is not null;--> statement-breakpoint
CREATE INDEX "catalog_items_search_idx" ON "catalog_items" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "catalog_items_tags_idx" ON "catalog_items" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "catalog_items_categories_idx" ON "catalog_items" USING gin ("categories");--> statement-breakpoint
CREATE UNIQUE INDEX "catalog_reports_one_open_key" ON "catalog_reports" USING btree ("item_id","reporter_account_id") WHERE "catalog_reports"."status" = 'open';--> statement-breakpoint
CREATE INDEX "catalog_reports_status_idx" ON "catalog_reports" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "catalog_transitions_item_idx" ON "catalog_transitions" USING btree ("item_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "catalog_versions_item_version_key" ON "catalog_versions" USING btree ("item_id","version");--> statement-breakpoint
CREATE INDEX "catalog_versions_item_created_idx" ON "catalog_versions" USING btree ("item_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "publishers_slug_key" ON "publishers" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "publishers_owner_idx" ON "publishers" USING btree ("owner_account_id");