// Balance-alert webhooks: the JSON body signed per Standard Webhooks (webhook-id, webhook-timestamp,
// webhook-signature) and POSTed through the outbound client, one attempt per call: the alerts job makes each attempt
// in its own run and waits for the next in the delayed set (shared/wallet/alert-delivery.ts).
import { Webhook } from 'standardwebhooks';
import type { Config } from '../config/index.js';
import { isOutboundRequestError, type OutboundClient, userUrlClient } from '../http/index.js';

export type WebhookTransport = Pick<OutboundClient, 'fetchBuffer'>;
export type WebhookAttempt = { attempt: number; statusCode?: number; error?: string; succeeded: boolean };
export type WebhookMessage = {
  url: string;
  customHeaders: Record<string, string>;
  /** The current secret first; a rotated one still signing after it (alert-settings.ts `signingSecrets`). */
  secrets: string[];
  messageId: string;
  payload: unknown;
};

/** Refusals of the address policy are final: retrying cannot make a private address public. */
const finalReasons = new Set(['invalid-url', 'scheme', 'blocked-address']);

/** One webhook attempt's whole time (connect, request, answer). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
const WEBHOOKS = { name: 'alert-webhooks', timeoutMs: WEBHOOK_TIMEOUT_MS, maxBytes: 64 * 1024 };

/** Webhook URLs are the organization's: the user-URL client, with a small answer limit. */
export function webhookClient(config: Pick<Config, 'OUTBOUND_ALLOWED_HOSTS'>): OutboundClient {
  return userUrlClient(config, WEBHOOKS);
}

/**
 * The three Standard Webhooks headers for `body`, signed now with each of the organization's `whsec_` secrets: the
 * signatures space-separated in one `webhook-signature` (the standard's form; a receiver accepts any that verifies).
 */
export function signWebhook(secrets: string[], messageId: string, body: string, at = new Date()) {
  const timestamp = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp.getTime() / 1000),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' '),
  };
}

/**
 * POSTs `message` once, as attempt number `attempt`: the same webhook-id and body on every attempt, signed with the
 * attempt's own timestamp (Standard Webhooks). `final` when no later attempt could succeed (an address refusal).
 */
export async function sendWebhookAttempt(
  transport: WebhookTransport,
  message: WebhookMessage,
  attempt: number,
): Promise<WebhookAttempt & { final: boolean }> {
  const body = JSON.stringify(message.payload);
  const headers = {
    ...message.customHeaders,
    ...signWebhook(message.secrets, message.messageId, body),
    'content-type': 'application/json',
  };
  try {
    const reply = await transport.fetchBuffer(message.url, { method: 'POST', headers, body, maxRedirects: 0 });
    return { attempt, statusCode: reply.status, succeeded: reply.status >= 200 && reply.status < 300, final: false };
  } catch (err) {
    const final = isOutboundRequestError(err) && finalReasons.has(err.reason);
    return { attempt, error: (err as Error).message.slice(0, 500), succeeded: false, final };
  }
}

/**
 * The pause after failed attempt `attempt` (1-based) before the next: `retryMs` doubling per attempt, times a random
 * 1–2 (jitter, so receivers that came back are not met by every sender at once), at most 32 × `retryMs`.
 */
export function webhookRetryPauseMs(attempt: number, retryMs: number): number {
  return Math.min(Math.round((1 + Math.random()) * retryMs * 2 ** (attempt - 1)), 32 * retryMs);
}
