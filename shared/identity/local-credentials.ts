// An in-process copy of verified API-key credentials for the gateway, whose requests neither count nor show the
// account's daily quota and so need no Redis step to authenticate. Invalidation stays immediate: the process that
// disables, deletes or changes something drops its copies at once, and tells every other process over Redis
// pub/sub; a process whose subscription is not live serves nothing from its copy (a message may have been missed).
// A kept copy also remembers its token's keyed hash (an HMAC per request was a few percent of the gateway's CPU):
// the hash is a function of the token alone, so the copy found through it is the one the hash would find, and a
// dropped copy is not found either way.
import type { Redis } from 'ioredis';
import { duplicateRedis } from '../redis/connection.js';
import type { CachedCredential } from './credential-cache.js';

const TTL_MS = 60_000;
const MAX_ENTRIES = 50_000;

export type LocalCredential = { credential: CachedCredential; roles: string[]; limit: number };

/** The channel every process of one deployment (one REDIS_PREFIX) listens on. */
export const invalidationChannel = (prefix: string) => `${prefix}:cred-invalidations`;

class LocalCredentials {
  private readonly entries = new Map<string, LocalCredential & { until: number }>();
  /** Token → its keyed hash, for the tokens of kept copies (well-formed API keys that authenticated). */
  private readonly hashes = new Map<string, string>();
  private live = false;
  /** Moves on every invalidation and every loss of the subscription: a lookup begun before may not be kept. */
  epoch = 0;
  private readonly subscriber: Redis;

  constructor(redis: Redis, prefix: string) {
    this.subscriber = duplicateRedis(redis, {
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      enableAutoPipelining: false,
    });
    this.subscriber.on('error', () => {});
    const lost = () => {
      this.live = false;
      this.clear();
    };
    this.subscriber.on('close', lost);
    this.subscriber.on('reconnecting', lost);
    this.subscriber.on('ready', () => {
      this.subscriber.subscribe(invalidationChannel(prefix)).then(() => {
        this.clear();
        this.live = true;
      }, lost);
    });
    this.subscriber.on('message', (_channel, message: string) => this.drop(message.split(',')));
    // The context's connection closing ends the process's use of the cache.
    redis.once('end', () => this.subscriber.disconnect());
  }

  get(tokenHash: string): LocalCredential | undefined {
    if (!this.live) return undefined;
    const hit = this.entries.get(tokenHash);
    if (!hit) return undefined;
    if (hit.until <= Date.now()) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return hit;
  }

  /** The copy of a token seen before, without computing its hash; undefined sends the caller the long way. */
  getByToken(token: string): LocalCredential | undefined {
    const tokenHash = this.hashes.get(token);
    if (tokenHash === undefined) return undefined;
    const hit = this.get(tokenHash);
    if (!hit) this.hashes.delete(token);
    return hit;
  }

  /** Keeps what a lookup begun at `epoch` found, unless something was invalidated since. */
  set(token: string, tokenHash: string, value: LocalCredential, epoch: number): void {
    if (!this.live || epoch !== this.epoch) return;
    if (this.entries.size >= MAX_ENTRIES) this.clearEntries();
    this.entries.set(tokenHash, { ...value, until: Date.now() + TTL_MS });
    // A dropped copy's token may linger here until it is used again or the table is cleared: it finds nothing.
    if (this.hashes.size >= MAX_ENTRIES) this.hashes.clear();
    this.hashes.set(token, tokenHash);
  }

  /** Token hashes, or `*` for everything (an account's roles or quota changed). */
  drop(tokenHashes: string[]): void {
    this.epoch += 1;
    if (tokenHashes.includes('*')) this.clearEntries();
    else for (const hash of tokenHashes) this.entries.delete(hash);
  }

  private clear(): void {
    this.epoch += 1;
    this.clearEntries();
  }

  private clearEntries(): void {
    this.entries.clear();
    this.hashes.clear();
  }
}

const caches = new WeakMap<Redis, LocalCredentials>();

/** The local copy of the process using this connection (created, and subscribed, on first use). */
export function localCredentials(redis: Redis, prefix: string): LocalCredentials {
  let cache = caches.get(redis);
  if (!cache) {
    cache = new LocalCredentials(redis, prefix);
    caches.set(redis, cache);
  }
  return cache;
}

/** Drops copies in this process now (the others hear it from the channel). */
export function dropLocalCredentials(redis: Redis, tokenHashes: string[]): void {
  caches.get(redis)?.drop(tokenHashes);
}
