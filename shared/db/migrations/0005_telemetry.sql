CREATE TABLE "mcp_tool_usage" (
	"item_id" uuid NOT NULL,
	"tool_name" text NOT NULL,
	"usage_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "mcp_tool_usage_item_id_tool_name_pk" PRIMARY KEY("item_id","tool_name")
);
--> statement-breakpoint
CREATE TABLE "telemetry_flushes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telemetry_once_events" (
	"item_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"client_hash" text NOT NULL,
	"event_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "telemetry_once_events_item_id_event_type_client_hash_pk" PRIMARY KEY("item_id","event_type","client_hash")
);
--> statement-breakpoint
ALTER TABLE "mcp_tool_usage" ADD CONSTRAINT "mcp_tool_usage_item_id_catalog_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."catalog_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telemetry_once_events" ADD CONSTRAINT "telemetry_once_events_item_id_catalog_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."catalog_items"("id") ON DELETE cascade ON UPDATE no action;