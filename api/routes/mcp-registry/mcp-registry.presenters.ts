// The MCP Registry API's JSON: `{server, _meta}` per entry (server.json plus the registry's official metadata and
// our own figures under our reverse-DNS key), and the list `{servers, metadata}`.

import type { Published } from '../../../shared/mcp-registry/registry-publish.js';
import type { RegistryEntry } from '../../../shared/mcp-registry/registry-reads.js';
import { type ServerJson, toServerJson } from '../../../shared/mcp-registry/server-json.js';
import { catalogMetaKey, serverName } from '../../../shared/mcp-registry/server-names.js';
import { withoutNulls } from '../../http/json.js';
import { roundRating } from '../catalog/catalog.presenters.js';

export const OFFICIAL_META_KEY = 'io.modelcontextprotocol.registry/official';

export type RegistryPresenter = { namespace: string; publicBaseUrl: string };

/**
 * A deleted server (withdrawn by its publisher or removed by a moderator, perhaps for a leaked secret or a malicious
 * endpoint) keeps only what a mirror needs to drop it: name, version, title and description, never how to connect
 * (packages, remotes and their headers) nor links and icons (security review, 2026-11-27).
 */
function deletedServerJson(server: ServerJson): ServerJson {
  const { $schema, name, description, title, version } = server;
  return { $schema, name, description, title, version };
}

export function presentEntry(p: RegistryPresenter, row: RegistryEntry) {
  const name = serverName(p.namespace, row.publisherSlug, row.slug);
  const server = toServerJson({ ...row, name });
  return {
    server: row.active ? server : deletedServerJson(server),
    _meta: {
      [OFFICIAL_META_KEY]: {
        status: row.active ? 'active' : 'deleted',
        publishedAt: row.publishedAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        isLatest: row.isLatest,
      },
      [catalogMetaKey(p.namespace)]: withoutNulls({
        id: row.itemId,
        slug: row.slug,
        pageUrl: `${p.publicBaseUrl}/hub/mcp/${row.slug}`,
        publisher: { slug: row.publisherSlug, name: row.publisherName },
        source: row.verified ? 'official' : 'user',
        isFeatured: row.isFeatured,
        installCount: row.installCount,
        usageCount: row.usageCount,
        viewCount: row.viewCount,
        ratingAverage: roundRating(row.ratingAverage),
        ratingCount: row.ratingCount,
        toolCount: row.toolCount,
        categories: row.categories,
        tags: row.tags,
        license: row.license,
      }),
    },
  };
}

export function presentList(p: RegistryPresenter, rows: RegistryEntry[], nextCursor?: string) {
  return {
    servers: rows.map((row) => presentEntry(p, row)),
    metadata: { ...(nextCursor ? { nextCursor } : {}), count: rows.length },
  };
}

/** A publish answers the server.json as it will be served, and where it stands in our review. */
export function presentPublished(p: RegistryPresenter, published: Published) {
  return {
    server: published.server,
    _meta: {
      [catalogMetaKey(p.namespace)]: {
        id: published.itemId,
        versionId: published.versionId,
        status: published.status,
      },
    },
  };
}
