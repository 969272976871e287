// The generic MCP Registry API's optional edit (PUT) and delete (DELETE) of one server version. This registry does
// not offer them (versions change through publishing and review, docs/mcp-registry.md), and the API says how a
// registry without them answers: 501 {error}, never a 404 that a client would read as "no such version".
import { AppError } from '../../../shared/errors/app-error.js';
import type { Route } from '../route.js';

const notOffered = (method: 'put' | 'delete', what: string): Route => ({
  method,
  path: '/servers/:serverName/versions/:version',
  summary: `${what} a server version: not offered by this registry (501)`,
  access: 'public',
  status: 501,
  returns: '`{error}`: publish a new version instead (POST /publish); removals go through the catalog.',
  handler: () => () => {
    throw new AppError('McpRegistry.NotImplemented', 501, `${what} is not supported by this registry.`);
  },
});

export const notOfferedRoutes: Route[] = [notOffered('put', 'Updating'), notOffered('delete', 'Deletion')];
