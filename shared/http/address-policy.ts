// Which destinations outbound requests may reach: global unicast addresses only, unless OUTBOUND_ALLOWED_HOSTS exempts them.
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { OutboundRequestError, refusal } from './outbound-error.js';

type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
type IpRange = [IpAddress, number];

export type AddressPolicy = {
  /** True when the host name (not an IP) is listed in the allowlist. */
  isHostExempt(hostname: string): boolean;
  /** Why the address may not be contacted (e.g. "a loopback address"), or null when it may. */
  refusal(address: string): string | null;
};

/** IANA's global unicast block: every routable IPv6 address lives here; the rest is special or unassigned. */
const ipv6GlobalUnicast: IpRange = [ipaddr.IPv6.parse('2000::'), 3];

const rangeNames: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private address',
  uniqueLocal: 'a private (unique-local) address',
  ipv4Mapped: 'an IPv4-mapped address',
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
};

/** Strips IPv6 brackets and returns the address when the string is a plain IP literal (strict dotted quad or IPv6). */
export function ipLiteralOf(host: string): string | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return net.isIP(bare) ? bare : null;
}

/** Parses an IP and unwraps IPv4-mapped IPv6 (::ffff:7f00:1 becomes 127.0.0.1). */
function parseIp(address: string): IpAddress | null {
  const literal = ipLiteralOf(address);
  return literal ? ipaddr.process(literal) : null;
}

const normaliseHostname = (host: string) => host.toLowerCase().replace(/\.$/, '');

function parseAllowlistEntry(entry: string): { range: IpRange } | { hostname: string } {
  const trimmed = entry.trim();
  const slash = trimmed.indexOf('/');
  if (slash >= 0) {
    const base = ipLiteralOf(trimmed.slice(0, slash));
    if (!base || !ipaddr.isValidCIDR(`${base}${trimmed.slice(slash)}`)) {
      throw new Error(`OUTBOUND_ALLOWED_HOSTS: "${entry}" is not a valid CIDR range`);
    }
    return { range: ipaddr.parseCIDR(`${base}${trimmed.slice(slash)}`) };
  }
  const ip = parseIp(trimmed);
  if (ip) return { range: [ip, ip.kind() === 'ipv4' ? 32 : 128] };
  if (!/^[a-z0-9.-]+$/i.test(trimmed))
    throw new Error(`OUTBOUND_ALLOWED_HOSTS: "${entry}" is not a host name, IP or CIDR`);
  return { hostname: normaliseHostname(trimmed) };
}

export function createAddressPolicy(allowedHosts: readonly string[]): AddressPolicy {
  const ranges: IpRange[] = [];
  const hostnames = new Set<string>();
  for (const entry of allowedHosts) {
    if (!entry.trim()) continue;
    const parsed = parseAllowlistEntry(entry);
    if ('range' in parsed) ranges.push(parsed.range);
    else hostnames.add(parsed.hostname);
  }

  function judge(address: string): string | null {
    const ip = parseIp(address);
    if (!ip) return 'not an IP address';
    if (ranges.some(([base, bits]) => ip.kind() === base.kind() && ip.match(base, bits))) return null;
    const range = ip.range();
    if (range !== 'unicast') return rangeNames[range] ?? 'a reserved address';
    if (ip.kind() === 'ipv6' && !ip.match(ipv6GlobalUnicast)) return 'a reserved address';
    return null;
  }
  // The verdict depends only on the address: remembered, since parsing an address is a good part of a loopback
  // upstream call's CPU (every gateway request to a literal-IP upstream asks again). Bounded by clearing.
  const verdicts = new Map<string, string | null>();
  return {
    isHostExempt: (hostname) => hostnames.has(normaliseHostname(hostname)),
    refusal(address) {
      let verdict = verdicts.get(address);
      if (verdict === undefined) {
        verdict = judge(address);
        if (verdicts.size >= 1_000) verdicts.clear();
        verdicts.set(address, verdict);
      }
      return verdict;
    },
  };
}

/** Validates scheme, credentials and literal-IP hosts before any connection; host names are checked at connect time. */
export function parseOutboundUrl(input: string | URL, policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    throw new OutboundRequestError('invalid-url', `"${String(input).slice(0, 200)}" is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refusal('scheme', `only http and https URLs may be fetched, not ${url.protocol}`, url.href);
  }
  if (url.username || url.password) {
    throw new OutboundRequestError('invalid-url', 'URLs with a user name or password are not allowed.');
  }
  if (!url.hostname) throw new OutboundRequestError('invalid-url', 'The URL has no host.', url.href);
  const literal = ipLiteralOf(url.hostname);
  const refused = literal ? policy.refusal(literal) : null;
  if (literal && refused) {
    // The address is the caller's own literal (with the IPv4 one it embeds): naming it reveals nothing.
    const embedded = ipaddr.process(literal).toString();
    const shown = embedded === literal ? literal : `${literal} (${embedded})`;
    throw refusal('blocked-address', `${shown} is ${refused}, which may not be fetched.`, url.href);
  }
  return url;
}
