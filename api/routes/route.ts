// The one declaration of a route: what it answers (method, path), who may call it (access, daily quota), what it
// takes (path ids, query, body) and returns, and its handler. The router (api/routes/mount.ts) and the OpenAPI
// document (api/openapi/document.ts) are both built from these declarations, so they cannot drift apart.
import type { RequestHandler, Router } from 'express';
import type { z } from 'zod';
import type { AppContext } from '../../shared/context.js';
import type { LeanAnswer } from '../http/lean-lane.js';
import type { PathParam } from '../http/path-params.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** public: no credential; bearer: `ock_` key or `ocs_` session; session: console session only; gateway:
 * project-bound key as bearer or x-api-key; metrics: METRICS_TOKEN. */
export type Access = 'public' | 'bearer' | 'session' | 'gateway' | 'metrics' | 'optional-bearer';

/** What an authenticated request does to the account's daily quota: `counted` consumes one request when the
 * credential is an API key and answers the x-ratelimit headers; `shown` only answers the headers; `none` neither. */
export type DailyQuota = 'counted' | 'shown' | 'none';

/** Middleware built once per mount, given the route it guards (so `authenticate` reads its `dailyQuota`). */
export type Before = (ctx: AppContext, route: Route) => RequestHandler[];

export type Route = {
  method: Method;
  /** Express syntax, relative to the area's prefix: `/:keyId/enable`; `/` is the prefix itself. */
  path: string;
  summary: string;
  /** The OpenAPI tag, when not the area's (a route another folder owns). */
  tag?: string;
  access: Access;
  /** Required for every route a caller signs in to (bearer, optional-bearer, session): mount.ts checks it. */
  dailyQuota?: DailyQuota;
  /** The path parameters the route validates before its handler runs (others are documented as strings). */
  params?: Record<string, PathParam>;
  body?: z.ZodType;
  /** multipart/form-data with these file fields instead of a JSON body. */
  multipartFiles?: string[];
  /** An object schema, or an object piped into a transform (its input object is documented). */
  query?: z.ZodObject | z.ZodPipe;
  /** The route reads the current organization from the X-Organization-Id header. */
  organization?: boolean;
  /** The route takes an Idempotency-Key header: 409 while its first request is in flight, 422 for another body. */
  idempotencyKey?: boolean;
  /** Success status and what it returns; JSON by default. A route that only refuses (status 400 or more, such as
   * the MCP Registry's 501 for what it does not offer) is documented with its route family's error body. */
  status?: number;
  returns?: string;
  /** The schema of the success body's JSON (for the organization family the envelope's `data`; route-docs.ts wraps
   * it), taken from the route's presenters. Without one the document says only "any JSON". Fields the presenters drop
   * when null are `.optional()`, never nullable. test/operations/openapi-responses.test.ts holds real answers to it. */
  response?: z.ZodType;
  /** Fields the organization family's envelope carries beside `data` (a list's `total`, a page's `page` and `size`:
   * `pageFields` in api/openapi/response-parts.ts). */
  envelopeFields?: Record<string, z.ZodType>;
  /** A second success status the route answers and when (a replay answering the record the first request made, an
   * update beside a creation). */
  alsoSucceeds?: { status: number; when: string };
  /** The route answers 401 for credentials it reads itself, though it needs none to be called (a login's e-mail and
   * password): a sentence naming the code. */
  unauthorized?: string;
  content?: 'json' | 'text' | 'markdown' | 'csv' | 'html' | 'none' | 'json-or-sse' | 'json-or-csv' | 'binary';
  /** The route answers 409 when the caller's state refuses it, such as a limit on what it may hold (a sentence
   * naming the code and the cause). */
  conflicts?: string;
  /** The route answers 404 for a resource named outside its declared path parameters (in the body, or a path
   * parameter any string may fill): a sentence naming the code. */
  notFound?: string;
  /** The route answers 410 when what it names is used up or expired (a sentence naming the code and the cause). */
  gone?: string;
  /** A counted gateway operation (SPEC section 3): the project quota admits it (429 Project.QuotaExceeded with
   * Retry-After) and, when `paid`, the wallet must cover its most possible cost (402 Wallet.InsufficientBalance);
   * `funded` costs nothing but needs a wallet above zero (402 at or below zero: count_tokens); `free` needs neither. */
  gatewayAccounting?: 'paid' | 'funded' | 'free';
  /** The route honours an optional If-Match precondition and answers 412 when it fails (a sentence naming the code
   * and what the tag names). */
  ifMatch?: string;
  /** The success answers an ETag header (a sentence saying what it names). */
  etag?: string;
  /** The route honours If-None-Match: a matching tag answers 304 with no body (a sentence saying what matches). */
  notModified?: string;
  /** The route answers one byte range of its body (`Range`, `If-Range`): 206 with Content-Range, 416 when none of
   * the range exists (a sentence saying what it answers to other ranges). */
  byteRanges?: string;
  /** The route answers 429 with Retry-After under this limit (a sentence naming it). */
  rateLimited?: string;
  /** The route writes the audit log: each request of an account counts towards AUDITED_CHANGES_PER_ACCOUNT_PER_HOUR
   * (429 Account.TooManyChanges; shared/audit/audit-allowance.ts). Every route that calls `auditActorOf` says so. */
  audited?: true;
  /** The route also answers 503 with Retry-After when this pool is full (a sentence naming it). */
  busy?: string;
  /** Authentication and authorization, run before the path ids are validated and the handler runs. */
  before?: Before;
  handler: (ctx: AppContext) => RequestHandler;
  /** Also served by the direct lane at its exact path, skipping Express's router (api/http/direct-lane.ts): for the
   * few routes whose per-request cost is the product's speed. Needs a literal path and no area middleware. */
  hotPath?: boolean;
  /** A hot route's answer to its common request on Node's own objects (api/http/lean-lane.ts): for a route with no
   * `before` checks and no path parameters, whose handler gives the same answer to the bodies this one answers. */
  lean?: (ctx: AppContext) => LeanAnswer;
};

/** One folder's routes, mounted under the prefix api/routes/areas.ts gives it. */
export type Area = {
  /** The OpenAPI tag of its routes. */
  tag: string;
  routes: Route[];
  /** How the document shows path parameters of the area's prefix that its `middleware` checks (a value it refuses
   * falls through to the other areas, so the routes cannot declare them in `params`): the catalog's `{type}`. */
  prefixParams?: Record<string, z.ZodType>;
  /** Middleware every route of the area runs first (after its own checks on the mount). */
  before?: Before;
  /** Middleware that is not a route (CORS of open reads, a sub-application), mounted before the routes. */
  middleware?: (router: Router, ctx: AppContext) => void;
  /** Middleware mounted after the routes (static files the routes' own paths must win over). */
  trailingMiddleware?: (router: Router, ctx: AppContext) => void;
  /** Mounted only when this holds (the local storage driver's files). Always documented. */
  enabled?: (ctx: AppContext) => boolean;
};

export const defineRoutes = (routes: Route[]): Route[] => routes;
