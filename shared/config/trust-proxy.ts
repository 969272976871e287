// TRUST_PROXY: which proxies may tell Express the client's address (X-Forwarded-For), in Express's own terms.
// `true` trusts every hop, so a client can choose its own address unless the proxy overwrites the header: prefer a
// hop count (`1` behind one load balancer) or the proxies' addresses.
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

export type TrustProxy = boolean | number | string[];

const namedRanges = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (namedRanges.has(entry)) return true;
  if (ipaddr.isValid(entry)) return true;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

export const trustProxySetting = z
  .string()
  .trim()
  .transform((value, ctx): TrustProxy => {
    if (value === 'true') return true;
    if (value === 'false') return false;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const entries = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const wrong = entries.find((e) => !isProxyAddress(e));
    if (entries.length === 0 || wrong !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `must be true, false, a hop count, or addresses/CIDRs/loopback/linklocal/uniquelocal${wrong ? ` (not "${wrong}")` : ''}`,
      });
      return z.NEVER;
    }
    return entries;
  });
