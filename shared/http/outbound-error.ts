// The one error type of outbound HTTP: a stable `reason` for code and a message fit to show an API user.
export const outboundErrorReasons = [
  'invalid-url',
  'scheme',
  'blocked-address',
  'dns',
  'timeout',
  'too-large',
  'too-many-redirects',
  'connect',
  'aborted',
] as const;

export type OutboundErrorReason = (typeof outboundErrorReasons)[number];

export class OutboundRequestError extends Error {
  constructor(
    readonly reason: OutboundErrorReason,
    message: string,
    /** The URL being requested when it failed (a redirect target after a redirect); absent if unparseable. */
    readonly url?: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'OutboundRequestError';
  }
}

export const isOutboundRequestError = (err: unknown): err is OutboundRequestError =>
  err instanceof OutboundRequestError;

/** The rules that refuse a request before or between connections; every refusal message names its rule. */
const refusalRules = {
  'blocked-address': 'private-address',
  scheme: 'scheme',
  'too-many-redirects': 'redirect-limit',
} as const;

/**
 * A refusal by one of the outbound rules: the message says which rule refused and why, and never names an address
 * the host resolved to (that would tell a caller about the inside of our network).
 */
export function refusal(reason: keyof typeof refusalRules, why: string, url?: string): OutboundRequestError {
  return new OutboundRequestError(reason, `Refused by the ${refusalRules[reason]} rule: ${why}`, url);
}

const dnsCodes = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'ENODATA']);
const timeoutCodes = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/** Maps whatever undici, net or dns threw into an OutboundRequestError naming `target` (a URL, or a bare host name). */
export function toOutboundError(err: unknown, target: URL | string): OutboundRequestError {
  const href = typeof target === 'string' ? undefined : target.href;
  const host = typeof target === 'string' ? target : target.hostname;
  const cause = (err as { cause?: unknown } | null)?.cause;
  const ours = err instanceof OutboundRequestError ? err : cause instanceof OutboundRequestError ? cause : null;
  if (ours) {
    return ours.url !== undefined || href === undefined
      ? ours
      : new OutboundRequestError(ours.reason, ours.message, href, { cause: ours.cause });
  }
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  if (dnsCodes.has(code)) {
    return new OutboundRequestError('dns', `The host name ${host} could not be resolved.`, href, { cause: err });
  }
  if (timeoutCodes.has(code)) {
    return new OutboundRequestError('timeout', `${host} did not answer in time.`, href, { cause: err });
  }
  // Only the error's code: a network error's message names the address the socket tried.
  const detail = /^[A-Z][A-Z0-9_]*$/.test(code) ? code : 'network error';
  return new OutboundRequestError('connect', `The request to ${host} failed (${detail}).`, href, { cause: err });
}
