-- A moderator's own decisions, newest first (GET /api/v1/moderation/decisions), read by this index instead of a
-- walk of every transition. A plain CREATE INDEX: a SHARE lock on catalog_transitions (reads go on, writes wait).
CREATE INDEX "catalog_transitions_actor_idx" ON "catalog_transitions" USING btree ("actor_account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);