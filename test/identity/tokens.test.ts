import { permissionsFor } from '../../shared/identity/principal.js';
import { generateToken, keyedHash, tokenKind } from '../../shared/identity/tokens.js';

describe('bearer tokens', () => {
  it('makes ock_ API keys and ocs_ sessions of 46 characters that pass their checksum', () => {
    const key = generateToken('api-key');
    const session = generateToken('session');
    expect(key).toMatch(/^ock_[0-9A-Za-z]{42}$/);
    expect(session).toMatch(/^ocs_[0-9A-Za-z]{42}$/);
    expect(tokenKind(key)).toBe('api-key');
    expect(tokenKind(session)).toBe('session');
  });

  it('refuses junk and tokens whose checksum does not match, before any lookup', () => {
    const key = generateToken('api-key');
    const flipped = key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11);
    expect(tokenKind(flipped)).toBeUndefined();
    expect(tokenKind('ock_short')).toBeUndefined();
    expect(tokenKind(`xyz_${key.slice(4)}`)).toBeUndefined();
    expect(tokenKind('')).toBeUndefined();
  });

  it('never repeats and hashes with the server secret', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => generateToken('api-key')));
    expect(tokens.size).toBe(1000);
    const t = generateToken('api-key');
    expect(keyedHash('secret-one-1234567', t)).not.toBe(keyedHash('secret-two-1234567', t));
    expect(keyedHash('secret-one-1234567', t)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('permissions', () => {
  it('derives permissions from roles', () => {
    expect(permissionsFor([])).toEqual(['api-keys:manage', 'catalog:read', 'catalog:report']);
    expect(permissionsFor(['Publisher'])).toContain('catalog:publish');
    expect(permissionsFor(['Admin'])).toEqual(expect.arrayContaining(['accounts:admin', 'catalog:moderate']));
  });
});
