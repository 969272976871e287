// Anthropic's error shape `{type:"error", error:{type, message}, request_id}` with the error type per status.
import { randomId } from '../deterministic.js';
import { ProviderError } from '../provider-error.js';
import { RETRY_AFTER_SECONDS } from '../triggers.js';

export type AnthropicErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'api_error'
  | 'overloaded_error';

const typeByStatus: Record<number, AnthropicErrorType> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export function newRequestId(): string {
  return randomId('req_', 24);
}

export function anthropicErrorBody(status: number, message: string, requestId = newRequestId()) {
  return { type: 'error', error: { type: typeByStatus[status] ?? 'api_error', message }, request_id: requestId };
}

export function anthropicError(status: number, message: string, headers: Record<string, string> = {}): ProviderError {
  const requestId = newRequestId();
  return new ProviderError(status, anthropicErrorBody(status, message, requestId), {
    'request-id': requestId,
    ...headers,
  });
}

export const invalidRequest = (message: string) => anthropicError(400, message);

export const rateLimited = () =>
  anthropicError(429, 'This request would exceed the rate limit of the simulated provider ([rate-limited]).', {
    'retry-after': String(RETRY_AFTER_SECONDS),
  });
