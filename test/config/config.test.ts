import { availableParallelism } from 'node:os';
import {
  adminPasswordHint,
  adminPasswordRefusal,
  DEVELOPMENT_ADMIN_PASSWORD,
  DEVELOPMENT_SECRET_KEY,
} from '../../shared/config/development-defaults.js';
import { ConfigError, loadConfig } from '../../shared/config/index.js';
import { selectQueues } from '../../shared/queues/registry.js';

/** Every setting production requires. */
const productionSettings = {
  NODE_ENV: 'production',
  UPSTREAM_MESSAGES_URL: 'https://api.vendor.example',
  UPSTREAM_MESSAGES_KEY: 'messages-vendor-key',
  UPSTREAM_VIDEO_URL: 'https://video.vendor.example',
  UPSTREAM_VIDEO_KEY: 'video-vendor-key',
  UPSTREAM_SEARCH_URL: 'https://search.vendor.example',
  UPSTREAM_SEARCH_KEY: 'search-vendor-key',
  PUBLIC_BASE_URL: 'https://hub.example.com',
  SECRET_KEY: 'a-long-private-production-secret',
};

describe('configuration', () => {
  it('has working defaults for local development', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.NODE_ENV).toBe('development');
    expect(config.WEB_BILLING_MULTIPLIER).toBe(1);
    expect(config.VIDEO_POLL_INTERVAL_MS).toBe(4000);
    expect(config.publicBaseUrl).toBe('http://localhost:3000');
    expect(config.OUTBOUND_ALLOWED_HOSTS).toEqual([]);
  });

  it('parses lists, numbers and URLs', () => {
    const config = loadConfig({
      PORT: '8080',
      OUTBOUND_ALLOWED_HOSTS: '127.0.0.1, localhost,,10.0.0.0/8',
      PUBLIC_BASE_URL: 'https://hub.example.com/',
      WEB_BILLING_MULTIPLIER: '2.5',
    });
    expect(config.PORT).toBe(8080);
    expect(config.OUTBOUND_ALLOWED_HOSTS).toEqual(['127.0.0.1', 'localhost', '10.0.0.0/8']);
    expect(config.publicBaseUrl).toBe('https://hub.example.com');
    expect(config.WEB_BILLING_MULTIPLIER).toBe(2.5);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://x'],
    ['STORAGE_DRIVER', 'ftp'],
    ['VIDEO_POLL_INTERVAL_MS', '-5'],
    ['UPSTREAM_VIDEO_KIND', 'sora'],
    ['PUBLIC_BASE_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      expect((err as ConfigError).message).toContain(name);
    }
  });

  it('takes Redis Cluster seed nodes and then requires a hash-tagged prefix', () => {
    const nodes = '127.0.0.1:7000,redis-b.internal:7001';
    expect(loadConfig({ REDIS_CLUSTER_NODES: nodes, REDIS_PREFIX: '{ockhub}' }).REDIS_CLUSTER_NODES).toBe(nodes);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: nodes })).toThrow(/REDIS_PREFIX.*hash tag/);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1', REDIS_PREFIX: '{ockhub}' })).toThrow(
      /REDIS_CLUSTER_NODES/,
    );
  });

  it('does not echo secret values in its message', () => {
    try {
      loadConfig({ SECRET_KEY: 'short' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect((err as Error).message).toContain('SECRET_KEY');
      expect((err as Error).message).not.toContain('short"');
    }
  });

  it('says a short ADMIN_PASSWORD needs 12 characters in production, not only the 10 every password needs', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', ADMIN_PASSWORD: 'short' })).toThrow(
      /ADMIN_PASSWORD: must have at least 10 characters \(12 in production/,
    );
  });

  it('refuses to start in production without upstreams, public URL and a private secret', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/UPSTREAM_MESSAGES_URL[\s\S]*SECRET_KEY/);
    const config = loadConfig(productionSettings);
    expect(config.NODE_ENV).toBe('production');
  });

  it('refuses to start in production without a key for each upstream, naming every missing one', () => {
    const { UPSTREAM_MESSAGES_KEY: _m, UPSTREAM_SEARCH_KEY: _s, ...withoutTwo } = productionSettings;
    let refusal: unknown;
    try {
      loadConfig(withoutTwo);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as ConfigError).problems).toEqual([
      'UPSTREAM_MESSAGES_KEY: is required in production (the API key the gateway sends to UPSTREAM_MESSAGES_URL)',
      'UPSTREAM_SEARCH_KEY: is required in production (the API key the gateway sends to UPSTREAM_SEARCH_URL)',
    ]);
    // Outside production an upstream may go without a key (the simulated provider, a local relay).
    expect(loadConfig({ ...withoutTwo, NODE_ENV: 'development' }).UPSTREAM_MESSAGES_KEY).toBeUndefined();
  });

  it('reads SECRET_KEY_PREVIOUS by the rules of SECRET_KEY, refusing the current key and, in production, the development one', () => {
    const production = productionSettings;
    expect(loadConfig(production).SECRET_KEY_PREVIOUS).toBeUndefined();
    expect(loadConfig({ ...production, SECRET_KEY_PREVIOUS: 'the-private-secret-before' }).SECRET_KEY_PREVIOUS).toBe(
      'the-private-secret-before',
    );
    expect(() => loadConfig({ SECRET_KEY_PREVIOUS: 'short' })).toThrow(/SECRET_KEY_PREVIOUS/);
    expect(() =>
      loadConfig({ SECRET_KEY: 'one-secret-of-16-chars', SECRET_KEY_PREVIOUS: 'one-secret-of-16-chars' }),
    ).toThrow(/SECRET_KEY_PREVIOUS: must differ from SECRET_KEY/);
    expect(() => loadConfig({ ...production, SECRET_KEY_PREVIOUS: DEVELOPMENT_SECRET_KEY })).toThrow(
      /SECRET_KEY_PREVIOUS: must not be the development value in production/,
    );
    expect(
      loadConfig({ SECRET_KEY_PREVIOUS: DEVELOPMENT_SECRET_KEY, SECRET_KEY: 'a-new-development-secret' }),
    ).toMatchObject({
      SECRET_KEY_PREVIOUS: DEVELOPMENT_SECRET_KEY,
    });
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['true', true],
    ['1', 1],
    ['2', 2],
    ['loopback, 10.0.0.0/8', ['loopback', '10.0.0.0/8']],
    ['203.0.113.7,2001:db8::/32', ['203.0.113.7', '2001:db8::/32']],
  ])('reads %s as Express trust proxy %j', (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it.each([['yes'], ['10.0.0.0/99'], ['proxy.example.com'], [',']])('refuses %s', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });
});

describe('guessing and telemetry limits', () => {
  it('default to 10 failures per account and 50 per address in 15 minutes, and 600 telemetry events a minute', () => {
    const config = loadConfig({});
    expect(config.AUTH_FAILURES_PER_ACCOUNT).toBe(10);
    expect(config.AUTH_FAILURES_PER_ADDRESS).toBe(50);
    expect(config.AUTH_FAILURE_WINDOW_MS).toBe(900_000);
    expect(config.TELEMETRY_RATE_LIMIT_PER_MINUTE).toBe(600);
  });

  it.each([
    ['AUTH_FAILURES_PER_ACCOUNT', '-1'],
    ['AUTH_FAILURE_WINDOW_MS', '10'],
    ['TELEMETRY_RATE_LIMIT_PER_MINUTE', 'x'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});

describe('password hashing', () => {
  it('defaults to one thread per core but one (1 to 4), a queue of 64 and idle priority', () => {
    const config = loadConfig({});
    expect(config.PASSWORD_HASH_THREADS).toBe(Math.max(1, Math.min(4, availableParallelism() - 1)));
    expect(config.PASSWORD_HASH_QUEUE_LIMIT).toBe(64);
    expect(config.PASSWORD_HASH_PRIORITY).toBe('idle');
    expect(
      loadConfig({ PASSWORD_HASH_THREADS: '3', PASSWORD_HASH_QUEUE_LIMIT: '0', PASSWORD_HASH_PRIORITY: 'low' }),
    ).toMatchObject({
      PASSWORD_HASH_THREADS: 3,
      PASSWORD_HASH_QUEUE_LIMIT: 0,
      PASSWORD_HASH_PRIORITY: 'low',
    });
  });

  it.each([
    ['PASSWORD_HASH_THREADS', '0'],
    ['PASSWORD_HASH_THREADS', '1.5'],
    ['PASSWORD_HASH_QUEUE_LIMIT', '-1'],
    ['PASSWORD_HASH_PRIORITY', 'realtime'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});

describe('development defaults that grant access', () => {
  const production = { NODE_ENV: 'production' };
  it('lets the seed use any ADMIN_PASSWORD outside production', () => {
    expect(
      adminPasswordRefusal({ NODE_ENV: 'development', ADMIN_PASSWORD: DEVELOPMENT_ADMIN_PASSWORD }),
    ).toBeUndefined();
  });
  it.each([
    [DEVELOPMENT_ADMIN_PASSWORD, /development default/],
    ['eleven-char', /at least 12/],
  ])('refuses ADMIN_PASSWORD %s in production', (password, reason) => {
    expect(adminPasswordRefusal({ ...production, ADMIN_PASSWORD: password })).toMatch(reason);
  });
  it('accepts a private ADMIN_PASSWORD of 12 characters or more in production', () => {
    expect(adminPasswordRefusal({ ...production, ADMIN_PASSWORD: 'twelve-chars' })).toBeUndefined();
  });
  it('npm start names the development password when ADMIN_PASSWORD is unset, and never a password that was set', () => {
    expect(adminPasswordHint(loadConfig({}))).toBe(
      'password ockhub-admin-dev, the development default; ADMIN_PASSWORD sets another',
    );
    const hint = adminPasswordHint(loadConfig({ ADMIN_PASSWORD: 'my-own-password' }));
    expect([hint, hint.includes('my-own-password')]).toEqual(['password from ADMIN_PASSWORD', false]);
  });
  it('npm start says so when the Admin made earlier has another password than the one configured', () => {
    expect(adminPasswordHint(loadConfig({}), false)).toMatch(/^its password is not the development default: /);
    const hint = adminPasswordHint(loadConfig({ ADMIN_PASSWORD: 'my-own-password' }), false);
    expect([hint, hint.includes('my-own-password')]).toEqual([
      expect.stringMatching(/^its password is not ADMIN_PASSWORD: /),
      false,
    ]);
  });
});

describe('WORKER_QUEUES', () => {
  it('runs 200 video steps at once per worker unless VIDEO_WORKER_CONCURRENCY says otherwise', async () => {
    const { concurrency } = (await import('../../workers/video/processor.js')).default;
    const steps = (env: Record<string, string>) =>
      typeof concurrency === 'function' ? concurrency({ config: loadConfig(env) } as never) : concurrency;
    expect(steps({})).toBe(200);
    expect(steps({ VIDEO_WORKER_CONCURRENCY: '1000' })).toBe(1000);
    expect(() => loadConfig({ VIDEO_WORKER_CONCURRENCY: '0' })).toThrow(/VIDEO_WORKER_CONCURRENCY/);
  });

  it('selects every queue by default or with "all"', () => {
    expect(selectQueues('all')).toContain('video');
    expect(selectQueues('')).toHaveLength(selectQueues('all').length);
  });
  it('selects the named queues', () => {
    expect(selectQueues('video, web-fetch')).toEqual(['video', 'web-fetch']);
  });
  it('names unknown queues in its error', () => {
    expect(() => selectQueues('video,vidoe')).toThrow(/vidoe/);
  });
});
