-- JSON that a person wrote and reads again keeps their key order: a version's payload (a tool's input schema, whose
-- `properties` order is the order clients draw the argument form in) and an alert webhook's custom headers become
-- `json`, which keeps the text as written, instead of `jsonb`, which keeps its own order (shorter keys first) and drops
-- duplicate keys (docs/catalog.md, "Key order"). Existing rows keep the order jsonb gave them: their text is jsonb's
-- output. Nothing queries these columns with a jsonb operator, index, equality or DISTINCT. Each ALTER rewrites its
-- table under an ACCESS EXCLUSIVE lock, so catalog reads and alert settings wait for the release step (10,000
-- versions of 3.5 KB took 0.37 s here). The default, kept as '{}'::jsonb by the ALTER, is set again as json.
ALTER TABLE "catalog_versions" ALTER COLUMN "payload" SET DATA TYPE json USING "payload"::json;--> statement-breakpoint
ALTER TABLE "wallet_alert_settings" ALTER COLUMN "custom_headers" SET DATA TYPE json USING "custom_headers"::json;--> statement-breakpoint
ALTER TABLE "wallet_alert_settings" ALTER COLUMN "custom_headers" SET DEFAULT '{}'::json;
