// The part of a client address a per-address limit counts: an IPv4 address (also when IPv4-mapped), or the /64 of
// an IPv6 address, since one subscriber is usually given a whole /64 and could otherwise rotate through it.
import ipaddr from 'ipaddr.js';

export function addressBucket(address: string): string {
  if (!ipaddr.isValid(address)) return address.replace(/[^\w.:-]/g, '_').slice(0, 64) || 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${prefix.join(':')}::/64`;
}
