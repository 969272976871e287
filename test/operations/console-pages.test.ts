// The console's static router: page paths answer index.html with the console's CSP, hashed assets are cached for
// good, a missing build says so, and every API path stays the API's.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import supertest from 'supertest';
import { consoleRoutes } from '../../api/routes/console/console.routes.js';
import { createHarness, type Harness } from '../support/harness.js';

let h: Harness;
let built: string;
beforeAll(async () => {
  h = await createHarness({ STORAGE_PUBLIC_BASE_URL: 'https://cdn.example.test/media' });
  built = mkdtempSync(path.join(os.tmpdir(), 'ockhub-console-'));
  mkdirSync(path.join(built, 'assets'));
  writeFileSync(
    path.join(built, 'index.html'),
    '<!doctype html><script type="module" src="/assets/app-1a2b.js"></script>',
  );
  writeFileSync(path.join(built, 'assets', 'app-1a2b.js'), 'console.log("hub")');
  writeFileSync(path.join(built, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
});
afterAll(() => h.close());

/** The console router mounted as the API mounts it (the API's own app has x-powered-by off). */
const serve = (dir: string) => supertest(express().disable('x-powered-by').use(consoleRoutes(h.ctx, dir)));

describe('the console pages', () => {
  it('answers every page path with index.html, not cached, under a CSP without inline script', async () => {
    for (const page of [
      '/',
      '/hub/mcp',
      '/hub/soul/stoic-mentor',
      '/sign-in',
      '/org/wallet',
      '/platform',
      '/join/abc',
    ]) {
      const res = await serve(built).get(page);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('/assets/app-1a2b.js');
      expect(res.headers['cache-control']).toBe('no-cache');
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("media-src 'self' https://cdn.example.test https:");
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('serves hashed assets for a year and immutable, with the same CSP; a missing asset is not a page', async () => {
    const asset = await serve(built).get('/assets/app-1a2b.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await serve(built).get('/favicon.svg')).status).toBe(200);
    expect((await serve(built).get('/assets/gone.js')).status).toBe(404);
    expect((await serve(built).get('/not-a-console-page')).status).toBe(404);
    expect((await serve(built).post('/hub/mcp')).status).toBe(404);
  });

  it('says the console is not built (503) when its build is missing', async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'ockhub-console-empty-'));
    const res = await serve(empty).get('/hub/mcp');
    expect(res.status).toBe(503);
    expect(res.text).toContain('npm run build');
  });

  it('leaves every API path to the API: unknown ones stay 404 in their family’s shape', async () => {
    const catalog = await h.http.get('/api/v1/no-such-area');
    expect(catalog.status).toBe(404);
    expect(catalog.headers['content-type']).toMatch(/^application\/problem\+json/);
    const org = await h.http.get('/api/organization/nothing');
    expect(org.body.error.code).toBe('Route.NotFound');
    expect((await h.http.get('/v1/nothing')).body.error.type).toBe('not_found_error');
    expect((await h.http.get('/api/v1/mcp')).headers['content-type']).toMatch(/^application\/json/);
  });
});
