// In-memory prompt cache: a prefix ending at a `cache_control` breakpoint is written on first use and read by
// a repeat within its TTL (5 minutes, or 1 hour with `ttl:"1h"`), refreshed on every hit, scoped per key and model.
import { sha256 } from '../deterministic.js';
import type { PromptSegment } from './token-count.js';

export type CacheUsage = {
  cacheReadTokens: number;
  cacheCreation5mTokens: number;
  cacheCreation1hTokens: number;
};

const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;

export class PromptCache {
  private readonly expiresAt = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Looks the request's breakpoints up, records them, and says how many tokens were read and written. */
  apply(scope: string, segments: PromptSegment[]): CacheUsage {
    const usage: CacheUsage = { cacheReadTokens: 0, cacheCreation5mTokens: 0, cacheCreation1hTokens: 0 };
    const now = this.now();
    const breakpoints: { hash: string; cumulative: number; ttl: '5m' | '1h' }[] = [];
    let hash = sha256(scope).toString('hex');
    let cumulative = 0;
    for (const segment of segments) {
      hash = sha256(`${hash}|${segment.key}`).toString('hex');
      cumulative += segment.tokens;
      if (segment.cacheTtl) breakpoints.push({ hash, cumulative, ttl: segment.cacheTtl });
    }
    if (breakpoints.length === 0) return usage;

    let hit = -1;
    breakpoints.forEach((b, i) => {
      if ((this.expiresAt.get(b.hash) ?? 0) > now) hit = i;
    });
    usage.cacheReadTokens = hit >= 0 ? breakpoints[hit]!.cumulative : 0;
    let written = usage.cacheReadTokens;
    for (const b of breakpoints.slice(hit + 1)) {
      const tokens = b.cumulative - written;
      if (b.ttl === '1h') usage.cacheCreation1hTokens += tokens;
      else usage.cacheCreation5mTokens += tokens;
      written = b.cumulative;
    }
    for (const b of breakpoints) this.expiresAt.set(b.hash, now + TTL_MS[b.ttl]);
    this.evictExpired(now);
    return usage;
  }

  private evictExpired(now: number): void {
    if (this.expiresAt.size < 10_000) return;
    for (const [hash, expires] of this.expiresAt) if (expires <= now) this.expiresAt.delete(hash);
  }
}
