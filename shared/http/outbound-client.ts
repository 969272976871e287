// The one outbound HTTP client of the project: undici behind an address policy, manual redirects, time and size limits.
import type { Readable } from 'node:stream';
import { Agent, type Dispatcher, request } from 'undici';
import { createAddressPolicy, ipLiteralOf, parseOutboundUrl } from './address-policy.js';
import { Deadline } from './deadline.js';
import { guardedLookup, type HostResolver, resolveChecked, systemResolver } from './guarded-lookup.js';
import { discard, limitedBody, readAll, tooLarge } from './limited-body.js';
import { OutboundRequestError, refusal, toOutboundError } from './outbound-error.js';

export type OutboundClientOptions = {
  /** OUTBOUND_ALLOWED_HOSTS: host names (exact, case-insensitive), IPs or CIDRs exempt from the address block. */
  allowedHosts?: readonly string[];
  /** Total time for one request: connect, every redirect hop, headers and body. */
  timeoutMs?: number;
  /** Largest body accepted (checked against content-length and while reading). */
  maxBytes?: number;
  /** Redirects followed for GET and HEAD; other methods never follow redirects. */
  maxRedirects?: number;
  userAgent?: string;
  /** DNS resolver (all addresses of a name); defaults to the system's. Tests inject one. */
  lookup?: HostResolver;
};

export type OutboundRequestInit = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Per-call overrides of the client's limits (e.g. a larger size and time for rehosting a video). */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Cancels the request; it then fails with reason `aborted`. */
  signal?: AbortSignal;
};

export type OutboundHeaders = Record<string, string | string[] | undefined>;

export type OutboundResponse<TBody> = {
  status: number;
  headers: OutboundHeaders;
  /** The URL that answered, after redirects. */
  finalUrl: string;
  body: TBody;
};

export type OutboundClient = {
  /** Fetches a whole body into memory (at most maxBytes). */
  fetchBuffer(url: string | URL, init?: OutboundRequestInit): Promise<OutboundResponse<Buffer>>;
  /** Answers once the headers are in; the body streams and errors with `too-large` or `timeout` past the limits. */
  stream(url: string | URL, init?: OutboundRequestInit): Promise<OutboundResponse<Readable>>;
  /** POSTs JSON (webhooks); redirects are not followed, a 3xx comes back as the response. */
  postJson(
    url: string | URL,
    json: unknown,
    headers?: Record<string, string>,
    init?: OutboundRequestInit,
  ): Promise<OutboundResponse<Buffer>>;
  /** Validates a URL without fetching it (e.g. when a webhook URL is saved); connect time checks again. */
  checkUrl(url: string | URL): Promise<URL>;
  close(): Promise<void>;
};

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
/** Headers that must not follow a redirect to another origin. */
const originBoundHeaders = new Set(['authorization', 'cookie', 'proxy-authorization']);

export function createOutboundClient(options: OutboundClientOptions = {}): OutboundClient {
  const defaults = {
    timeoutMs: options.timeoutMs ?? 10_000,
    maxBytes: options.maxBytes ?? 5 * 1024 * 1024,
    maxRedirects: options.maxRedirects ?? 5,
  };
  const userAgent = options.userAgent ?? 'ockhub/0.1 (+outbound)';
  const resolver = options.lookup ?? systemResolver;
  const policy = createAddressPolicy(options.allowedHosts ?? []);
  // HTTP/1.1 only: undici 8 negotiates HTTP/2 over TLS by default, and this client's limits and tests (body counting,
  // deadline, connection reuse per checked address) are written and proven for HTTP/1.1 (docs/outbound-http.md).
  const agent = new Agent({
    allowH2: false,
    connect: { lookup: guardedLookup(resolver, policy), timeout: defaults.timeoutMs },
  });

  /** Sends the request, following GET/HEAD redirects hop by hop; each hop's URL is validated again. */
  async function open(input: string | URL, init: OutboundRequestInit, deadline: Deadline) {
    const method = (init.method ?? 'GET').toUpperCase();
    const follows = method === 'GET' || method === 'HEAD';
    const maxRedirects = follows ? (init.maxRedirects ?? defaults.maxRedirects) : 0;
    const maxBytes = init.maxBytes ?? defaults.maxBytes;
    let headers: Record<string, string> = { 'user-agent': userAgent, ...lowerCaseKeys(init.headers ?? {}) };
    let url = parseOutboundUrl(input, policy);
    for (let hop = 0; ; hop++) {
      let res: Dispatcher.ResponseData;
      try {
        res = await deadline.race(
          request(url, { dispatcher: agent, method, headers, body: init.body, signal: deadline.signal }),
          (late) => discard(late.body),
        );
      } catch (err) {
        throw toOutboundError(err, url);
      }
      const location = res.headers.location;
      if (follows && redirectStatuses.has(res.statusCode) && typeof location === 'string') {
        discard(res.body);
        if (hop >= maxRedirects) {
          throw refusal(
            'too-many-redirects',
            `more than ${maxRedirects} redirects; the last one pointed to ${location.slice(0, 200)}.`,
            url.href,
          );
        }
        const next = parseOutboundUrl(resolveLocation(location, url), policy);
        if (next.origin !== url.origin) headers = withoutOriginBoundHeaders(headers);
        url = next;
        continue;
      }
      const declared = Number(res.headers['content-length']);
      if (method !== 'HEAD' && Number.isFinite(declared) && declared > maxBytes) {
        discard(res.body);
        throw tooLarge(maxBytes, url);
      }
      return { res, url, maxBytes };
    }
  }

  async function stream(input: string | URL, init: OutboundRequestInit = {}): Promise<OutboundResponse<Readable>> {
    const deadline = new Deadline(init.timeoutMs ?? defaults.timeoutMs, init.signal);
    try {
      const { res, url, maxBytes } = await open(input, init, deadline);
      const body = limitedBody(res.body, maxBytes, url, () => deadline.clear());
      return { status: res.statusCode, headers: res.headers, finalUrl: url.href, body };
    } catch (err) {
      deadline.clear();
      throw err;
    }
  }

  async function fetchBuffer(input: string | URL, init: OutboundRequestInit = {}) {
    const response = await stream(input, init);
    return { ...response, body: await readAll(response.body) };
  }

  return {
    fetchBuffer,
    stream,
    postJson: (input, json, headers = {}, init = {}) =>
      fetchBuffer(input, {
        ...init,
        method: 'POST',
        headers: { ...lowerCaseKeys(headers), 'content-type': 'application/json' },
        body: JSON.stringify(json),
      }),
    async checkUrl(input) {
      const url = parseOutboundUrl(input, policy);
      if (!ipLiteralOf(url.hostname)) {
        await resolveChecked(url.hostname, resolver, policy).catch((err: unknown) => {
          throw toOutboundError(err, url);
        });
      }
      return url;
    },
    close: () => agent.close(),
  };
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function withoutOriginBoundHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !originBoundHeaders.has(name)));
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new OutboundRequestError(
      'invalid-url',
      `The redirect target "${location.slice(0, 200)}" is not a valid URL.`,
    );
  }
}
