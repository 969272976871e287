// DNS for outbound requests: every resolved address is checked, and the socket connects to exactly the checked address.
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { AddressPolicy } from './address-policy.js';
import { OutboundRequestError, refusal, toOutboundError } from './outbound-error.js';

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Resolves a host name to all its addresses; injectable so tests can make "evil.example" resolve anywhere. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** Resolves a host name and refuses it if ANY of its addresses is refused (unless the name itself is exempt). */
export async function resolveChecked(
  hostname: string,
  resolver: HostResolver,
  policy: AddressPolicy,
): Promise<ResolvedAddress[]> {
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolver(hostname);
  } catch (err) {
    throw toOutboundError(err, hostname);
  }
  if (addresses.length === 0) {
    throw new OutboundRequestError('dns', `The host name ${hostname} could not be resolved.`);
  }
  if (policy.isHostExempt(hostname)) return addresses;
  for (const { address } of addresses) {
    const refused = policy.refusal(address);
    if (refused) throw refusal('blocked-address', `${hostname} resolves to ${refused}, which may not be fetched.`);
  }
  return addresses;
}

/** A `lookup` for net/tls connect options (used by the undici Agent); it is never called for IP-literal hosts. */
export function guardedLookup(resolver: HostResolver, policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolveChecked(hostname, resolver, policy).then(
      (addresses) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const usable = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
        const first = usable[0];
        if (!first) {
          callback(new OutboundRequestError('dns', `${hostname} has no IPv${family} address.`), '', 0);
        } else if (options.all) {
          callback(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (err: OutboundRequestError) => callback(err, '', 0),
    );
  };
}
