// Which addresses outbound requests may reach, and how OUTBOUND_ALLOWED_HOSTS exempts some (no network here).
import { createAddressPolicy } from '../../shared/http/index.js';

describe('the address policy without an allowlist', () => {
  const policy = createAddressPolicy([]);

  it.each(['93.184.215.14', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e'])(
    'allows the public unicast address %s',
    (address) => {
      expect(policy.refusal(address)).toBeNull();
    },
  );

  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['10.1.2.3', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.0.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['100.100.100.200', 'a carrier-grade NAT address'],
    ['0.0.0.0', 'an unspecified address'],
    ['255.255.255.255', 'a broadcast address'],
    ['239.255.255.250', 'a multicast address'],
    ['192.0.2.1', 'a reserved address'],
    ['::1', 'a loopback address'],
    ['::', 'an unspecified address'],
    ['::ffff:7f00:1', 'a loopback address'],
    ['::ffff:10.0.0.1', 'a private address'],
    ['fd00:ec2::254', 'a private (unique-local) address'],
    ['fe80::1', 'a link-local address'],
    ['ff02::1', 'a multicast address'],
    ['2002:a00:1::', 'a 6to4 address'],
    ['64:ff9b::a00:1', 'a NAT64 address'],
    ['2001:db8::1', 'a reserved address'],
    ['::7f00:1', 'a reserved address'],
    ['100::1', 'a reserved address'],
  ])('refuses %s as %s', (address, why) => {
    expect(policy.refusal(address)).toBe(why);
  });

  it('refuses anything that is not a strict IP literal', () => {
    expect(policy.refusal('127.1')).toBe('not an IP address');
    expect(policy.refusal('localhost')).toBe('not an IP address');
  });

  it('exempts no host name', () => {
    expect(policy.isHostExempt('localhost')).toBe(false);
  });
});

describe('the allowlist', () => {
  const policy = createAddressPolicy([' 127.0.0.1 ', '[::1]', 'fd00::/8', '10.20.0.0/16', 'Minio.Internal', '']);

  it('exempts listed IPs, also in their IPv4-mapped form', () => {
    expect(policy.refusal('127.0.0.1')).toBeNull();
    expect(policy.refusal('::ffff:127.0.0.1')).toBeNull();
    expect(policy.refusal('::1')).toBeNull();
    expect(policy.refusal('127.0.0.2')).toBe('a loopback address');
  });

  it('exempts every address of a listed CIDR and nothing next to it', () => {
    expect(policy.refusal('fd00:ec2::254')).toBeNull();
    expect(policy.refusal('fc00::1')).toBe('a private (unique-local) address');
    expect(policy.refusal('10.20.255.1')).toBeNull();
    expect(policy.refusal('10.21.0.1')).toBe('a private address');
  });

  it('exempts listed host names case-insensitively, with or without the trailing dot', () => {
    expect(policy.isHostExempt('minio.internal')).toBe(true);
    expect(policy.isHostExempt('MINIO.INTERNAL.')).toBe(true);
    expect(policy.isHostExempt('other.internal')).toBe(false);
    expect(policy.isHostExempt('sub.minio.internal')).toBe(false);
  });
});
