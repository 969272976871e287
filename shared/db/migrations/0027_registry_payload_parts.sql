-- The MCP Registry API builds server.json from an MCP version's `connections` and `configFields` only, and read the
-- whole payload for it: a page of 100 versions with large tool lists (about 1 MB each at the body limit) was 100 MB
-- detoasted by PostgreSQL and parsed on the API's main loop, about a second of CPU per anonymous read (security
-- review #151). PostgreSQL keeps the two parts beside the payload, so a read takes only them. One statement, so the
-- table is rewritten once (a stored generated column fills every existing row).
ALTER TABLE "catalog_versions"
  ADD COLUMN "registry_connections" json GENERATED ALWAYS AS (payload -> 'connections') STORED,
  ADD COLUMN "registry_config_fields" json GENERATED ALWAYS AS (payload -> 'configFields') STORED;
