// The SSRF suite: every URL form that could reach a private, loopback, link-local or metadata address is refused
// before any connection is made (no test here ever connects to anything but its own loopback servers).
import { createOutboundClient, type OutboundClient, type ResolvedAddress } from '../../shared/http/index.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { type ConnectionMonitor, isLoopback, monitorConnections } from './connection-monitor.js';

/** "evil" host names and what the injected resolver says they resolve to; any other name goes to the system resolver. */
const evilDns: Record<string, ResolvedAddress[]> = {
  'evil.example': [{ address: '10.0.0.7', family: 4 }],
  'metadata.evil.example': [{ address: '169.254.169.254', family: 4 }],
  'loopback6.evil.example': [{ address: '::1', family: 6 }],
  'mapped.evil.example': [{ address: '::ffff:127.0.0.1', family: 6 }],
  'ec2v6.evil.example': [{ address: 'fd00:ec2::254', family: 6 }],
  'mixed.evil.example': [
    { address: '93.184.215.14', family: 4 },
    { address: '10.0.0.7', family: 4 },
  ],
};

let monitor: ConnectionMonitor;
let target: LoopbackServer;
let lookups: string[];
let client: OutboundClient;

function lookup(hostname: string): Promise<ResolvedAddress[]> {
  lookups.push(hostname);
  const fixed = evilDns[hostname];
  if (fixed) return Promise.resolve(fixed);
  if (hostname === 'localhost') return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
  return Promise.reject(Object.assign(new Error(`no test DNS entry for ${hostname}`), { code: 'ENOTFOUND' }));
}

beforeAll(async () => {
  monitor = monitorConnections();
  target = await startLoopbackServer((_req, res) => res.end('secret'));
});
beforeEach(() => {
  lookups = [];
  monitor.attempts.length = 0;
  monitor.connectedTo.length = 0;
});
afterEach(async () => {
  await client?.close();
  // Whatever happened, no connection ever went anywhere but loopback.
  expect(monitor.connectedTo.every(isLoopback)).toBe(true);
});
afterAll(async () => {
  monitor.stop();
  await target.close();
});

describe('literal addresses are refused before any connection attempt', () => {
  it.each([
    ['decimal IPv4', 'http://2130706433/'],
    ['octal IPv4', 'http://0177.0.0.1/'],
    ['hex IPv4', 'http://0x7f.0.0.1/'],
    ['hex IPv4 as one number', 'http://0x7f000001/'],
    ['short IPv4', 'http://127.1/'],
    ['loopback with a port over https', 'https://127.0.0.1:8443/'],
    ['the unspecified address', 'http://0.0.0.0/'],
    ['the unspecified address written as 0', 'http://0/'],
    ['a 10/8 private address', 'http://10.0.0.7/'],
    ['a 172.16/12 private address', 'http://172.16.5.4/'],
    ['a 192.168/16 private address', 'http://192.168.1.1/'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['the Alibaba metadata address (carrier-grade NAT)', 'http://100.100.100.200/latest/meta-data/'],
    ['the broadcast address', 'http://255.255.255.255/'],
    ['a multicast address', 'http://224.0.0.1/'],
    ['a reserved address', 'http://240.0.0.1/'],
    ['IPv6 loopback', 'http://[::1]/'],
    ['the IPv6 unspecified address', 'http://[::]/'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped loopback in hex', 'http://[::ffff:7f00:1]/'],
    ['IPv4-mapped metadata, long form', 'http://[0:0:0:0:0:ffff:169.254.169.254]/'],
    ['IPv4-compatible loopback', 'http://[::127.0.0.1]/'],
    ['the EC2 IPv6 metadata address (unique-local)', 'http://[fd00:ec2::254]/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['IPv6 multicast', 'http://[ff02::1]/'],
    ['6to4 embedding 127.0.0.1', 'http://[2002:7f00:1::]/'],
    ['NAT64 embedding the metadata address', 'http://[64:ff9b::a9fe:a9fe]/'],
    ['Teredo', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/'],
  ])('refuses %s (%s) as blocked-address', async (_form, url) => {
    client = createOutboundClient({ lookup });
    await expect(client.fetchBuffer(url)).rejects.toMatchObject({ reason: 'blocked-address' });
    expect(monitor.attempts).toEqual([]);
    expect(lookups).toEqual([]);
  });

  it('explains the refusal in words an API user understands', async () => {
    client = createOutboundClient({ lookup });
    await expect(client.fetchBuffer('http://[::ffff:169.254.169.254]/')).rejects.toThrow(
      'Refused by the private-address rule: ::ffff:a9fe:a9fe (169.254.169.254) is a link-local address, which may not be fetched.',
    );
  });
});

describe('host names are checked on every resolved address at connect time', () => {
  it('refuses localhost, which resolves to 127.0.0.1 through /etc/hosts, and the server sees nothing', async () => {
    client = createOutboundClient({}); // the real system resolver
    await expect(client.fetchBuffer(`http://localhost:${target.port}/`)).rejects.toMatchObject({
      reason: 'blocked-address',
      message:
        'Refused by the private-address rule: localhost resolves to a loopback address, which may not be fetched.',
    });
    expect(target.requests).toHaveLength(0);
    expect(monitor.connectedTo).toEqual([]);
  });

  it.each([
    ['a private address', 'evil.example'],
    ['the metadata address', 'metadata.evil.example'],
    ['IPv6 loopback', 'loopback6.evil.example'],
    ['an IPv4-mapped loopback address', 'mapped.evil.example'],
    ['the EC2 IPv6 metadata address', 'ec2v6.evil.example'],
    ['one public and one private address', 'mixed.evil.example'],
  ])('refuses a host name resolving to %s (%s)', async (_what, hostname) => {
    client = createOutboundClient({ lookup });
    await expect(client.fetchBuffer(`https://${hostname}/`)).rejects.toMatchObject({ reason: 'blocked-address' });
    expect(lookups).toEqual([hostname]);
    expect(monitor.connectedTo).toEqual([]);
  });

  it('names the rule that refused and never the address a host name resolved to', async () => {
    client = createOutboundClient({ lookup });
    for (const [hostname, addresses] of Object.entries(evilDns)) {
      const refused = await client.fetchBuffer(`https://${hostname}/`).catch((err: Error) => err);
      expect(refused).toBeInstanceOf(Error);
      const message = (refused as Error).message;
      expect(message).toMatch(new RegExp(`^Refused by the private-address rule: ${hostname} resolves to an? `));
      for (const { address } of addresses) expect(message).not.toContain(address);
      expect(message).not.toMatch(/\d+\.\d+\.\d+\.\d+|::/);
    }
  });

  it('refuses such a host name in checkUrl too, without connecting', async () => {
    client = createOutboundClient({ lookup });
    await expect(client.checkUrl('http://evil.example/hook')).rejects.toMatchObject({ reason: 'blocked-address' });
    expect(monitor.attempts).toEqual([]);
  });
});

describe('redirects are re-checked hop by hop', () => {
  let redirector: LoopbackServer;
  let redirectTo = '';
  beforeAll(async () => {
    redirector = await startLoopbackServer((req, res) => {
      if (req.url?.startsWith('/loop')) {
        res.writeHead(302, { location: `/loop${Number(req.url.slice(5) || 0) + 1}` }).end();
      } else {
        res.writeHead(302, { location: redirectTo }).end();
      }
    });
  });
  afterAll(() => redirector.close());
  // The allowlist names only `localhost`: the first hop is exempt by name, the redirect targets are not.
  const start = () => `http://localhost:${redirector.port}/`;

  it.each([
    ['127.0.0.1 on another port', () => `http://127.0.0.1:${target.port}/`, 'blocked-address'],
    ['a protocol-relative 127.0.0.1 URL', () => `//127.0.0.1:${target.port}/`, 'blocked-address'],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data', 'blocked-address'],
    ['IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${target.port}/`, 'blocked-address'],
    ['a host name resolving to a private address', () => 'http://evil.example/', 'blocked-address'],
    ['a file: URL', () => 'file:///etc/passwd', 'scheme'],
    ['a gopher: URL', () => `gopher://127.0.0.1:${target.port}/_INFO`, 'scheme'],
  ])('refuses a redirect to %s', async (_what, location, reason) => {
    redirectTo = location();
    client = createOutboundClient({ allowedHosts: ['localhost'], lookup });
    await expect(client.fetchBuffer(start())).rejects.toMatchObject({ reason });
    expect(redirector.requests.length).toBeGreaterThan(0);
    expect(target.requests).toHaveLength(0);
  });

  it('refuses a redirect chain longer than the limit', async () => {
    client = createOutboundClient({ allowedHosts: ['localhost'], lookup, maxRedirects: 3 });
    await expect(client.fetchBuffer(`${start()}loop`)).rejects.toMatchObject({
      reason: 'too-many-redirects',
      url: `${start()}loop3`,
      message: 'Refused by the redirect-limit rule: more than 3 redirects; the last one pointed to /loop4.',
    });
  });

  it('says which rule refused a redirect, without the address its host resolved to', async () => {
    client = createOutboundClient({ allowedHosts: ['localhost'], lookup });
    redirectTo = 'http://metadata.evil.example/latest';
    await expect(client.fetchBuffer(start())).rejects.toThrow(
      'Refused by the private-address rule: metadata.evil.example resolves to a link-local address, which may not be fetched.',
    );
    redirectTo = 'file:///etc/passwd';
    await expect(client.fetchBuffer(start())).rejects.toThrow(
      'Refused by the scheme rule: only http and https URLs may be fetched, not file:',
    );
  });
});

describe('URLs that are not plain http(s) are refused', () => {
  it.each([
    ['file:///etc/passwd', 'scheme'],
    ['ftp://example.com/file', 'scheme'],
    ['gopher://127.0.0.1:6379/_INFO', 'scheme'],
    ['data:text/plain,hello', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['not a url', 'invalid-url'],
    ['http://', 'invalid-url'],
    ['http://user:pass@localhost/', 'invalid-url'],
    ['http://user@localhost/', 'invalid-url'],
  ])('refuses %s with %s', async (url, reason) => {
    client = createOutboundClient({ allowedHosts: ['localhost'], lookup });
    await expect(client.fetchBuffer(url)).rejects.toMatchObject({ reason });
    expect(monitor.attempts).toEqual([]);
  });

  it('does not repeat the password of a refused URL in its message', async () => {
    client = createOutboundClient({ lookup });
    const failure = await client.fetchBuffer('http://admin:hunter2@example.com/').catch((err: Error) => err);
    expect(String(failure)).not.toContain('hunter2');
  });
});
