// Describes each area's route declarations to the OpenAPI registry: the request schemas are the zod schemas the
// routes validate with; the responses follow from what the route declares (access, path parameters, limits,
// idempotency) and the error bodies from the area's route family (SPEC section 0).
import type { OpenAPIRegistry, ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { AUDITED_CHANGES_REFUSAL } from '../../shared/audit/audit-allowance.js';
import type { RouteFamily } from '../http/route-family.js';
import type { MountedArea } from '../routes/areas.js';
import type { Access, Route } from '../routes/route.js';
import { openApiPath } from './route-list.js';

/** A route as the document describes it: its declaration with the full OpenAPI path. */
type RouteDoc = Omit<Route, 'handler' | 'before' | 'path' | 'tag'> & { path: string };

const errorSchemas: Record<RouteFamily, string> = {
  catalog: 'Problem',
  messages: 'AnthropicError',
  gateway: 'OpenAIError',
  organization: 'EnvelopeError',
  mcpRegistry: 'RegistryError',
};

const errorMediaType = (family: RouteFamily) =>
  family === 'catalog' ? 'application/problem+json' : 'application/json';

const security: Record<Access, RouteConfig['security']> = {
  public: [],
  bearer: [{ bearer: [] }, { consoleCookie: [] }],
  'optional-bearer': [{}, { bearer: [] }, { consoleCookie: [] }],
  session: [{ bearer: [] }],
  gateway: [{ bearer: [] }, { xApiKey: [] }],
  metrics: [{ metricsToken: [] }],
};

function pathParams(doc: RouteDoc, prefixParams: Record<string, z.ZodType> = {}): z.ZodObject | undefined {
  const names = [...doc.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  if (names.length === 0) return undefined;
  return z.object(Object.fromEntries(names.map((n) => [n, doc.params?.[n]?.schema ?? prefixParams[n] ?? z.string()])));
}

/** The success body of a family: the organization family's envelope around `data` (with the fields the route's
 * envelope adds, such as a page's `total`), every other family's `data` as it is. */
const envelopeOr = (family: RouteFamily, data: z.ZodType, envelopeFields: RouteDoc['envelopeFields'] = {}) =>
  family === 'organization' ? z.object({ data, code: z.number().int(), error: z.null(), ...envelopeFields }) : data;

function successContent(doc: RouteDoc, family: RouteFamily): ResponseConfig['content'] {
  // A route that only ever refuses (the MCP Registry's 501 for what it does not offer) answers the family's error.
  if ((doc.status ?? 200) >= 400) return errorResponse(family, '').content;
  const any = doc.response ?? z.any();
  const body = envelopeOr(family, any, doc.envelopeFields);
  switch (doc.content ?? 'json') {
    case 'none':
      return undefined;
    case 'text':
      return { 'text/plain': { schema: z.string() } };
    case 'markdown':
      return { 'text/markdown': { schema: z.string() } };
    case 'csv':
      return { 'text/csv': { schema: z.string() } };
    case 'html':
      return { 'text/html': { schema: z.string() } };
    case 'binary':
      return { 'application/octet-stream': { schema: z.string() } };
    case 'json-or-sse':
      return { 'application/json': { schema: any }, 'text/event-stream': { schema: z.string() } };
    case 'json-or-csv':
      return { 'application/json': { schema: body }, 'text/csv': { schema: z.string() } };
    default:
      return { 'application/json': { schema: body } };
  }
}

function errorResponse(family: RouteFamily, description: string): ResponseConfig {
  return {
    description,
    content: { [errorMediaType(family)]: { schema: { $ref: `#/components/schemas/${errorSchemas[family]}` } } },
  };
}

const retryAfter = { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' as const } } };

/** What `authenticate` answers on a route that counts or shows the daily quota (SPEC section 1), once the caller is
 * known: every answer but the 401 (no account) and a 503 (the quota could not be read). */
const dailyQuotaHeaders = {
  'X-RateLimit-Limit': {
    description: "The account's daily quota of /api/v1 requests made with an API key (shared by all its keys).",
    schema: { type: 'integer' as const },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left today (UTC); 0 once it is used up, when a counted route answers 429.',
    schema: { type: 'integer' as const },
  },
};
const answersQuotaHeaders = (doc: RouteDoc, status: string) =>
  (doc.dailyQuota === 'counted' || doc.dailyQuota === 'shown') && status !== '401' && status !== '503';

const quotaExceeded = "ApiKey.QuotaExceeded: an API key's account has used its daily quota.";
const projectQuotaExceeded =
  'Project.QuotaExceeded: the project has reached one of its limits (daily or monthly requests or tokens, requests ' +
  'per minute); Retry-After is the seconds until that window resets.';
const walletShort =
  "Wallet.InsufficientBalance (or Wallet.Inactive): the organization's wallet cannot cover the request's most " +
  'possible cost; nothing is counted or charged.';
const walletEmpty =
  "Wallet.InsufficientBalance (or Wallet.Inactive): the organization's wallet is at or below zero (the request is " +
  'free, but only for a wallet with money); nothing is counted.';
const noOrganizationSelected =
  'Organization.NotSelected: no X-Organization-Id header, and the caller belongs to no organization or to several.';
const organizationNotFound = 'X-Organization-Id names an organization the caller is not a member of.';

const contentRange = (description: string) => ({
  'Content-Range': { description, schema: { type: 'string' as const } },
});
const acceptRanges = {
  'Accept-Ranges': { description: '`bytes`: the route answers a Range.', schema: { type: 'string' as const } },
};
const byteRangeHeaders = {
  range: z
    .string()
    .optional()
    .meta({ description: 'One byte range: `bytes=a-b`, `bytes=a-` or `bytes=-n` (the last n bytes); 206.' }),
  'if-range': z
    .string()
    .optional()
    .meta({ description: 'The ETag read earlier: the range is answered while it is current, else the whole body.' }),
};

/** 206 and 416 of a route that answers byte ranges, and Accept-Ranges on its success. */
function documentByteRanges(doc: RouteDoc, responses: Record<string, ResponseConfig>, family: RouteFamily): void {
  const success = responses[doc.status ?? 200] as ResponseConfig;
  success.headers = { ...success.headers, ...acceptRanges };
  responses[206] = {
    description: `The bytes of the one range asked for (Range). ${doc.byteRanges}`,
    content: successContent(doc, family),
    headers: { ...success.headers, ...contentRange('`bytes a-b/size`: which bytes these are, of how many.') },
  };
  responses[416] = {
    ...errorResponse(
      family,
      'File.RangeNotSatisfiable: no byte of the range is in the file (it starts at or past its end).',
    ),
    headers: contentRange('`bytes */size`: the length of the file.'),
  };
}

/** The routes of an area, under its prefix (Express paths become OpenAPI paths). */
export function documentArea(registry: OpenAPIRegistry, { prefix, family, area }: MountedArea): void {
  for (const { handler: _handler, before: _before, path, tag, ...doc } of area.routes) {
    const fullPath = openApiPath(`${prefix}${path === '/' ? '' : path}`) || '/';
    documentRoute(registry, tag ?? area.tag, { ...doc, path: fullPath }, family, area.prefixParams);
  }
}

function documentRoute(
  registry: OpenAPIRegistry,
  tag: string,
  doc: RouteDoc,
  family: RouteFamily,
  prefixParams?: Record<string, z.ZodType>,
): void {
  const params = pathParams(doc, prefixParams);
  const status = doc.status ?? 200;
  const responses: Record<string, ResponseConfig> = {
    [status]: {
      description: doc.returns ?? 'Success.',
      content: successContent(doc, family),
      ...(doc.etag ? { headers: { ETag: { description: doc.etag, schema: { type: 'string' as const } } } } : {}),
    },
  };
  if (doc.notModified) responses[304] = { description: doc.notModified };
  if (doc.byteRanges) documentByteRanges(doc, responses, family);
  if (doc.alsoSucceeds) {
    responses[doc.alsoSucceeds.status] = { description: doc.alsoSucceeds.when, content: successContent(doc, family) };
  }
  const invalid = [
    doc.body || doc.query || params || doc.multipartFiles ? 'The request is invalid.' : undefined,
    doc.organization ? noOrganizationSelected : undefined,
  ].filter(Boolean);
  if (invalid.length > 0) responses[400] = errorResponse(family, invalid.join(' '));
  if (doc.access !== 'public') {
    responses[401] = errorResponse(family, 'Missing or invalid credentials.');
    responses[403] = errorResponse(family, 'The credential may not do this.');
  }
  if (doc.unauthorized) responses[401] = errorResponse(family, doc.unauthorized);
  if (doc.gatewayAccounting === 'paid') responses[402] = errorResponse(family, walletShort);
  if (doc.gatewayAccounting === 'funded') responses[402] = errorResponse(family, walletEmpty);
  const missing = [
    params ? 'Not found.' : undefined,
    doc.notFound,
    doc.organization ? organizationNotFound : undefined,
  ].filter(Boolean);
  if (missing.length > 0) responses[404] = errorResponse(family, missing.join(' '));
  const conflicts = [
    doc.conflicts,
    doc.idempotencyKey ? 'Idempotency.RequestInFlight: the first request with this key is in flight.' : undefined,
  ].filter(Boolean);
  if (conflicts.length > 0) responses[409] = errorResponse(family, conflicts.join(' '));
  if (doc.gone) responses[410] = errorResponse(family, doc.gone);
  if (doc.body || doc.multipartFiles) {
    // What the body parsers answer for every route that reads a body (api/http/json-body.ts, body-guards.ts).
    responses[413] = errorResponse(
      family,
      'Request.TooLarge: the body is over its limit (BODY_LIMIT_BYTES, 1 MiB by default; GATEWAY_BODY_LIMIT_BYTES, 32 MiB, on /v1; a file route names its own), or a compressed body expands past it.',
    );
    responses[415] = errorResponse(
      family,
      'Request.UnsupportedMediaType: the body is not application/json in UTF-8 (or multipart/form-data where the route takes a file), or its content encoding is not gzip, deflate or br.',
    );
  }
  if (doc.ifMatch) responses[412] = errorResponse(family, doc.ifMatch);
  if (doc.idempotencyKey) {
    responses[422] = errorResponse(family, 'Idempotency.KeyReused: this key came first with a different body.');
  }
  const limits = [
    doc.rateLimited,
    doc.audited ? AUDITED_CHANGES_REFUSAL : undefined,
    doc.dailyQuota === 'counted' ? quotaExceeded : undefined,
    doc.gatewayAccounting ? projectQuotaExceeded : undefined,
  ].filter(Boolean);
  if (limits.length > 0) {
    responses[429] = { ...errorResponse(family, limits.join(' ')), headers: retryAfter };
  }
  const unavailable = 'A backing service (PostgreSQL, Redis or the upstream) is unavailable.';
  responses[503] = doc.busy
    ? { ...errorResponse(family, `${unavailable} ${doc.busy}`), headers: retryAfter }
    : errorResponse(family, unavailable);
  for (const [status, response] of Object.entries(responses)) {
    if (answersQuotaHeaders(doc, status)) response.headers = { ...response.headers, ...dailyQuotaHeaders };
  }

  const request: NonNullable<RouteConfig['request']> = {};
  if (params) request.params = params;
  if (doc.query) request.query = (doc.query instanceof z.ZodPipe ? doc.query.in : doc.query) as z.ZodObject;
  const headers = {
    ...(doc.organization ? { 'x-organization-id': z.string().optional() } : {}),
    ...(doc.idempotencyKey ? { 'idempotency-key': z.string().min(1).max(255).optional() } : {}),
    ...(doc.notModified
      ? {
          'if-none-match': z
            .string()
            .optional()
            .meta({ description: 'An ETag read earlier: 304 while it is current.' }),
        }
      : {}),
    ...(doc.byteRanges ? byteRangeHeaders : {}),
    ...(doc.ifMatch
      ? {
          'if-match': z
            .string()
            .optional()
            .meta({ description: 'The ETag the caller read; when it is no longer current the answer is 412.' }),
        }
      : {}),
  };
  if (Object.keys(headers).length > 0) request.headers = z.object(headers);
  if (doc.body) request.body = { required: true, content: { 'application/json': { schema: doc.body } } };
  if (doc.multipartFiles) {
    const fields = Object.fromEntries(doc.multipartFiles.map((f) => [f, z.string()]));
    request.body = { required: true, content: { 'multipart/form-data': { schema: z.object(fields) } } };
  }
  // A summary is plain text in OpenAPI (the reference at /docs showed `stream: true` with its backticks); the
  // description renders CommonMark, so a summary with code spans keeps them there.
  const summary = doc.summary.replaceAll('`', '');
  registry.registerPath({
    method: doc.method,
    path: doc.path,
    summary,
    ...(summary !== doc.summary ? { description: doc.summary } : {}),
    tags: [tag],
    security: security[doc.access],
    ...(Object.keys(request).length > 0 ? { request } : {}),
    responses,
  });
}
