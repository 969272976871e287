CREATE TABLE "video_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"api_key_id" uuid,
	"model" text NOT NULL,
	"seconds" integer NOT NULL,
	"price_micros" bigint NOT NULL,
	"request" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"step" integer DEFAULT 0 NOT NULL,
	"upstream_task_id" text,
	"upstream_attempts" integer DEFAULT 0 NOT NULL,
	"upstream_cancelled" boolean DEFAULT false NOT NULL,
	"error_message" text,
	"error_type" text,
	"object_key" text,
	"video_url" text,
	"object_store_url" text,
	"request_log_id" uuid NOT NULL,
	"reservation_id" uuid,
	"charge_closed" boolean DEFAULT false NOT NULL,
	"idempotency_key" text,
	"deadline_at" timestamp with time zone NOT NULL,
	"last_polled_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "video_tasks_project_idx" ON "video_tasks" USING btree ("project_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "video_tasks_idempotency_key" ON "video_tasks" USING btree ("project_id","idempotency_key") WHERE idempotency_key is not null;--> statement-breakpoint
CREATE INDEX "video_tasks_open_idx" ON "video_tasks" USING btree ("status") WHERE status in ('queued', 'in_progress');