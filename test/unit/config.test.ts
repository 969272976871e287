import { ConfigError, loadConfig } from '../../shared/config/index.js';
import { selectQueues } from '../../shared/queues/registry.js';

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

  it('does not echo secret values in its message', () => {
    try {
      loadConfig({ SECRET_KEY: 'short' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect((err as Error).message).toContain('SECRET_KEY');
      expect((err as Error).message).not.toContain('short"');
    }
  });

  it('refuses to start in production without upstreams, public URL and a private secret', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/UPSTREAM_MESSAGES_URL[\s\S]*SECRET_KEY/);
    const config = loadConfig({
      NODE_ENV: 'production',
      UPSTREAM_MESSAGES_URL: 'https://api.vendor.example',
      UPSTREAM_VIDEO_URL: 'https://video.vendor.example',
      UPSTREAM_SEARCH_URL: 'https://search.vendor.example',
      PUBLIC_BASE_URL: 'https://hub.example.com',
      SECRET_KEY: 'a-long-private-production-secret',
    });
    expect(config.NODE_ENV).toBe('production');
  });
});

describe('WORKER_QUEUES', () => {
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
