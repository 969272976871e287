// One renderer per route family over the same AppError: problem+json, vendor error shapes, and the envelope.
import type { Response } from 'express';
import type { AppError } from '../../shared/errors/app-error.js';
import type { RouteFamily } from './route-family.js';

const anthropicTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'invalid_request_error',
  413: 'request_too_large',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'overloaded_error',
  529: 'overloaded_error',
};

const openAiTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'insufficient_quota',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'invalid_request_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'server_error',
  503: 'service_unavailable',
};

/** A refused key stays refused: the vendors' SDKs retry what `x-should-retry` does not forbid, and Claude Code retries
 * a 401 about ten times over a minute or more (it may be an OAuth token due for a refresh) unless told not to. */
const finalForVendorClients = (res: Response, status: number) => {
  if (status === 401) res.setHeader('x-should-retry', 'false');
};

const fallbackType = (status: number, table: Record<number, string>) =>
  table[status] ?? (status >= 500 ? (table[500] as string) : (table[400] as string));

export function renderError(res: Response, family: RouteFamily, err: AppError): void {
  res.status(err.status);
  for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
  const correlationId = res.getHeader('x-correlation-id');
  switch (family) {
    case 'catalog':
      res.type('application/problem+json').send(
        JSON.stringify({
          type: `urn:ockhub:problem:${err.code}`,
          title: err.code,
          status: err.status,
          detail: err.message,
          ...(err.details ?? {}),
        }),
      );
      return;
    case 'messages':
      finalForVendorClients(res, err.status);
      if (correlationId) res.setHeader('request-id', String(correlationId));
      res.json({ type: 'error', error: { type: fallbackType(err.status, anthropicTypes), message: err.message } });
      return;
    case 'gateway':
      finalForVendorClients(res, err.status);
      res.json({ error: { message: err.message, type: fallbackType(err.status, openAiTypes), code: err.code } });
      return;
    case 'organization':
      res.json({ data: null, code: err.status, error: { code: err.code, message: err.message } });
      return;
    case 'mcpRegistry':
      res.json({ error: err.message });
      return;
  }
}
