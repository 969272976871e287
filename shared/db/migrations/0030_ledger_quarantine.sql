-- Settled gateway requests PostgreSQL refuses alone, taken off their organization's Redis stream so they stop failing
-- every later ledger batch of it (shared/wallet/ledger-writer.ts, docs/wallet.md "Entries PostgreSQL refuses").
CREATE TABLE "ledger_quarantine" (
	"organization_id" uuid NOT NULL,
	"stream_id" text NOT NULL,
	"entry" text NOT NULL,
	"charged" bigint NOT NULL,
	"error" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_quarantine_organization_id_stream_id_pk" PRIMARY KEY("organization_id","stream_id")
);
