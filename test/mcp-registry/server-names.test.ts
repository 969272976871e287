// Server names and the namespace setting: the reverse-DNS form the registry requires, read back to our slugs.
import { ConfigError, loadConfig } from '../../shared/config/index.js';
import {
  parseServerName,
  registryNamespace,
  SERVER_NAME_PATTERN,
  serverName,
} from '../../shared/mcp-registry/server-names.js';

const namespaceOf = (env: Record<string, string>) => registryNamespace(loadConfig({ NODE_ENV: 'test', ...env }));

describe('the namespace of server names', () => {
  it.each([
    [{}, 'localhost'],
    [{ PUBLIC_BASE_URL: 'https://hub.example.com' }, 'com.example.hub'],
    [{ PUBLIC_BASE_URL: 'https://mcp.internal.acme.co.uk:8443/base' }, 'uk.co.acme.internal.mcp'],
    [{ PUBLIC_BASE_URL: 'http://[::1]:3000' }, '--1'],
    [{ PUBLIC_BASE_URL: 'https://hub.example.com', MCP_REGISTRY_NAMESPACE: 'io.acme.mcp' }, 'io.acme.mcp'],
  ])('is %j → %s', (env, expected) => {
    expect(namespaceOf(env)).toBe(expected);
  });

  it('is at most 70 characters, so a whole name stays within 200', () => {
    const long = `https://${'a'.repeat(60)}.${'b'.repeat(60)}.example`;
    const namespace = namespaceOf({ PUBLIC_BASE_URL: long });
    expect(namespace.length).toBeLessThanOrEqual(70);
    const name = serverName(namespace, 'p'.repeat(64), 's'.repeat(64));
    expect(name.length).toBeLessThanOrEqual(200);
    expect(name).toMatch(SERVER_NAME_PATTERN);
  });

  it.each(['has/slash', 'a'.repeat(71), '.leading', 'under_score'])(
    'refuses MCP_REGISTRY_NAMESPACE=%s at start',
    (value) => {
      expect(() => loadConfig({ NODE_ENV: 'test', MCP_REGISTRY_NAMESPACE: value })).toThrow(ConfigError);
    },
  );
});

describe('server names', () => {
  it('are <namespace>.<publisher>/<slug> and read back only under this namespace', () => {
    expect(serverName('com.example.hub', 'acme', 'weather')).toBe('com.example.hub.acme/weather');
    expect(parseServerName('com.example.hub', 'com.example.hub.acme/weather')).toEqual({
      publisherSlug: 'acme',
      slug: 'weather',
    });
    for (const other of [
      'io.github.acme/weather',
      'com.example.hub/weather',
      'com.example.hub.acme.more/weather',
      'com.example.hub.acme/Weather',
      'com.example.hub.acme/weather/x',
      'com.example.hubacme/weather',
    ]) {
      expect(parseServerName('com.example.hub', other)).toBeUndefined();
    }
  });
});
