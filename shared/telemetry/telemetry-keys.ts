// Redis keys of the telemetry intake and counters: all under the `{tel}` hash tag (one Redis Cluster slot), so the
// intake's one Lua step may touch the limiter, the dedup keys, the pending counters and the once-events stream.
import { telemetryKeyBase } from '../redis/tagged-keys.js';

function keysOf(prefix: string) {
  const base = telemetryKeyBase(prefix);
  return {
    /** Sliding window of one client address (shared/rate-limit/address-bucket.ts). */
    rateLimit: (bucket: string) => `${base}:rl:${bucket}`,
    view: (itemId: string, clientHash: string, day: string) => `${base}:v:${itemId}:${clientHash}:${day}`,
    usage: (itemId: string, clientHash: string, day: string) => `${base}:u:${itemId}:${clientHash}:${day}`,
    /** A sender's event id already taken (`eventId`, hashed with the client and item): a retry counts nothing. */
    sent: (sentId: string) => `${base}:s:${sentId}`,
    /** install and favorite events waiting for their once-ever check in PostgreSQL. */
    once: `${base}:once`,
    pending: `${base}:pending`,
    flushing: `${base}:flushing`,
    flushingId: `${base}:flushing:id`,
  };
}

export type TelemetryKeys = Readonly<ReturnType<typeof keysOf>>;
/** Made once per prefix (a process has one; a test run a few): the intake asks for them on every event. */
const byPrefix = new Map<string, TelemetryKeys>();

export function telemetryKeys(prefix: string): TelemetryKeys {
  let keys = byPrefix.get(prefix);
  if (!keys) {
    keys = Object.freeze(keysOf(prefix));
    byPrefix.set(prefix, keys);
  }
  return keys;
}

/** Fields of the pending hash: `{itemId}|{counter}` and `{itemId}|tool|{toolName}`. */
export const counterField = (itemId: string, counter: string) => `${itemId}|${counter}`;
export const toolField = (itemId: string, toolName: string) => `${itemId}|tool|${toolName}`;
