// The MCP Registry API v0.1 under /v0.1 (docs/mcp-registry.md): public reads of the published mcp items as
// server.json, open to any origin, and the optional publish with a Publisher's `ock_` API key.

import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { MAX_UNPUBLISHED_ITEMS_PER_ACCOUNT, MAX_VERSIONS_PER_ITEM } from '../../../shared/catalog/catalog-limits.js';
import type { AppContext } from '../../../shared/context.js';
import { unauthorized } from '../../../shared/errors/app-error.js';
import { authenticateToken } from '../../../shared/identity/authenticator.js';
import { tokenKind } from '../../../shared/identity/tokens.js';
import { decodeCursor, encodeCursor } from '../../../shared/mcp-registry/cursor.js';
import { publishServerJson } from '../../../shared/mcp-registry/registry-publish.js';
import {
  getServerVersion,
  listRegistryEntries,
  listServerVersions,
} from '../../../shared/mcp-registry/registry-reads.js';
import { registryNamespace } from '../../../shared/mcp-registry/server-names.js';
import { pathParam } from '../../http/path-params.js';
import { query } from '../../http/validate.js';
import { principalOf, requireRole } from '../../middleware/auth.js';
import { publicReadRoute } from '../public-read-route.js';
import type { Area, Route } from '../route.js';
import { presentEntry, presentList, presentPublished } from './mcp-registry.presenters.js';
import { registryEntry, registryList, registryPublished } from './mcp-registry.responses.js';
import { detailQuery, listQuery } from './mcp-registry.schemas.js';
import { notOfferedRoutes } from './not-offered.js';
import { openReads } from './open-reads.js';

/** Only an `ock_` API key, as `Authorization: Bearer`; it counts the account's daily quota as the route declares. */
function publisherApiKey(ctx: AppContext, route: Route): RequestHandler {
  return async (req, res, next) => {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(req.header('authorization') ?? '')?.[1];
    if (!token || tokenKind(token) !== 'api-key') {
      throw unauthorized('Publishing needs a Publisher API key (ock_…) as Authorization: Bearer.');
    }
    const consumeDailyQuota = route.dailyQuota === 'counted';
    const { principal, quota } = await authenticateToken(ctx, token, { consumeDailyQuota });
    res.setHeader('x-ratelimit-limit', String(quota.limit));
    res.setHeader('x-ratelimit-remaining', String(quota.remaining));
    res.locals.principal = principal;
    next();
  };
}

const nameOf = (req: Request) => pathParam(req, 'serverName');

/** The publish body is a server.json (https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json). */
const serverJsonBody = z
  .looseObject({
    name: z.string(),
    description: z.string(),
    version: z.string(),
    title: z.string().optional(),
    packages: z.array(z.looseObject({})).optional(),
    remotes: z.array(z.looseObject({})).optional(),
  })
  .meta({ description: 'A server.json document (schema 2025-12-11).' });

/** The registry's namespace and base URL, as the presenters need them. */
const presenterOf = (ctx: AppContext) => ({
  namespace: registryNamespace(ctx.config),
  publicBaseUrl: ctx.config.publicBaseUrl,
});

export const mcpRegistryArea: Area = {
  tag: 'MCP Registry (v0.1)',
  middleware: (router) => {
    router.use('/servers', openReads);
  },
  routes: [
    publicReadRoute(
      'mcp-registry',
      {
        path: '/servers',
        summary: 'List MCP servers (every published version; cursor paging; CORS open)',
        query: listQuery,
        returns: '`{servers: [{server, _meta}], metadata: {nextCursor?, count}}`.',
        response: registryList,
      },
      async (ctx, req) => {
        const q = query(req, listQuery, 'McpRegistry.InvalidQuery');
        const presenter = presenterOf(ctx);
        const page = await listRegistryEntries(ctx.db, presenter.namespace, {
          cursor: q.cursor === undefined ? undefined : decodeCursor(q.cursor),
          limit: q.limit,
          search: q.search,
          updatedSince: q.updated_since === undefined ? undefined : new Date(q.updated_since),
          version: q.version,
          includeDeleted: q.include_deleted,
        });
        return { json: presentList(presenter, page.entries, page.next && encodeCursor(page.next)) };
      },
    ),
    publicReadRoute(
      'mcp-registry',
      {
        path: '/servers/:serverName/versions',
        summary: 'Every published version of a server, newest first',
        query: detailQuery,
        returns: '`{servers: [{server, _meta}], metadata: {count}}`.',
        response: registryList,
      },
      async (ctx, req) => {
        const { include_deleted } = query(req, detailQuery, 'McpRegistry.InvalidQuery');
        const presenter = presenterOf(ctx);
        const rows = await listServerVersions(ctx.db, presenter.namespace, nameOf(req), include_deleted);
        return { json: presentList(presenter, rows) };
      },
    ),
    publicReadRoute(
      'mcp-registry',
      {
        path: '/servers/:serverName/versions/:version',
        summary: 'One version of a server (`latest` for the newest)',
        query: detailQuery,
        returns: '`{server, _meta}`.',
        response: registryEntry,
      },
      async (ctx, req) => {
        const { include_deleted } = query(req, detailQuery, 'McpRegistry.InvalidQuery');
        const presenter = presenterOf(ctx);
        const version = pathParam(req, 'version');
        const entry = await getServerVersion(ctx.db, presenter.namespace, nameOf(req), version, include_deleted);
        return { json: presentEntry(presenter, entry) };
      },
    ),
    {
      method: 'post',
      path: '/publish',
      summary: 'Publish a server.json: a draft of the mcp item, submitted for review (Publisher API key)',
      access: 'bearer',
      dailyQuota: 'counted',
      body: serverJsonBody,
      returns: '`{server, _meta}`: the server.json as it will be served once approved.',
      response: registryPublished,
      conflicts: `McpRegistry.NameTaken: the slug belongs to another publisher's server. Version.Exists: the version exists and is not editable, or is not greater than every existing one. Version.LimitReached: the item already holds ${MAX_VERSIONS_PER_ITEM} versions. Draft.LimitReached: a new server would pass the account's ${MAX_UNPUBLISHED_ITEMS_PER_ACCOUNT} unpublished items.`,
      before: (ctx, route) => [publisherApiKey(ctx, route), requireRole('Publisher')],
      handler: (ctx) => async (req, res) => {
        const published = await publishServerJson(ctx, principalOf(res).accountId, req.body);
        res.json(presentPublished(presenterOf(ctx), published));
      },
    },
    ...notOfferedRoutes,
  ],
};
