// Balance-alert webhooks: the JSON body signed per Standard Webhooks (webhook-id, webhook-timestamp,
// webhook-signature) and POSTed through the outbound client, retried with exponential backoff and jitter;
// every attempt is reported to the caller, which records it.
import pRetry, { AbortError } from 'p-retry';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../config/index.js';
import { isOutboundRequestError, type OutboundClient, userUrlClient } from '../http/index.js';

export type WebhookTransport = Pick<OutboundClient, 'fetchBuffer'>;
export type WebhookAttempt = { attempt: number; statusCode?: number; error?: string; succeeded: boolean };
export type WebhookOutcome = { delivered: boolean; attempts: number; last: WebhookAttempt };

/** Refusals of the address policy are final: retrying cannot make a private address public. */
const finalReasons = new Set(['invalid-url', 'scheme', 'blocked-address']);

/** One webhook attempt's whole time (connect, request, answer). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
const WEBHOOKS = { name: 'alert-webhooks', timeoutMs: WEBHOOK_TIMEOUT_MS, maxBytes: 64 * 1024 };

/** Webhook URLs are the organization's: the user-URL client, with a small answer limit. */
export function webhookClient(config: Pick<Config, 'OUTBOUND_ALLOWED_HOSTS'>): OutboundClient {
  return userUrlClient(config, WEBHOOKS);
}

/** The three Standard Webhooks headers for `body`, signed now with the organization's `whsec_` secret. */
export function signWebhook(secret: string, messageId: string, body: string, at = new Date()) {
  const timestamp = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp.getTime() / 1000),
    'webhook-signature': new Webhook(secret).sign(messageId, timestamp, body),
  };
}

export async function sendSignedWebhook(
  transport: WebhookTransport,
  message: { url: string; customHeaders: Record<string, string>; secret: string; messageId: string; payload: unknown },
  options: {
    attempts: number;
    retryMs: number;
    /** Attempts made before this call (by an earlier run of the job), so numbering continues. */
    firstAttempt?: number;
    onAttempt(attempt: WebhookAttempt): Promise<void>;
  },
): Promise<WebhookOutcome> {
  const body = JSON.stringify(message.payload);
  const first = options.firstAttempt ?? 1;
  let last: WebhookAttempt = { attempt: first, succeeded: false, error: 'not attempted' };
  const once = async (attemptNumber: number) => {
    const attempt = first + attemptNumber - 1;
    const headers = {
      ...message.customHeaders,
      ...signWebhook(message.secret, message.messageId, body),
      'content-type': 'application/json',
    };
    try {
      const reply = await transport.fetchBuffer(message.url, { method: 'POST', headers, body, maxRedirects: 0 });
      const succeeded = reply.status >= 200 && reply.status < 300;
      last = { attempt, statusCode: reply.status, succeeded };
    } catch (err) {
      last = { attempt, error: (err as Error).message.slice(0, 500), succeeded: false };
      await options.onAttempt(last);
      if (isOutboundRequestError(err) && finalReasons.has(err.reason)) throw new AbortError(err.message);
      throw new Error(last.error);
    }
    await options.onAttempt(last);
    if (!last.succeeded) throw new Error(`the receiver answered ${last.statusCode}`);
  };
  try {
    await pRetry(once, {
      retries: options.attempts - 1,
      factor: 2,
      minTimeout: options.retryMs,
      maxTimeout: options.retryMs * 32,
      randomize: true,
    });
    return { delivered: true, attempts: last.attempt - first + 1, last };
  } catch {
    return { delivered: false, attempts: last.attempt - first + 1, last };
  }
}
