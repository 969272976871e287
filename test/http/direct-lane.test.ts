// The direct lane (api/http/direct-lane.ts): a hot route's exact method and path skip Express's router and run the
// same chain; every other request goes through the router; both answer alike, errors included.
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { serveDirectly } from '../../api/http/direct-lane.js';
import { mountAreas } from '../../api/routes/mount.js';
import type { Area } from '../../api/routes/route.js';
import { createHarness, type Harness } from '../support/harness.js';

describe('serveDirectly on a small application', () => {
  const seen = { router: 0 };
  const app = express();
  app.use((_req, _res, next) => {
    seen.router++;
    next();
  });
  app.use(express.json());
  const answer: RequestHandler = (req, res) => {
    res.json({ body: req.body, query: req.query, originalUrl: req.originalUrl, locals: typeof res.locals });
  };
  const throwing: RequestHandler = () => {
    throw Object.assign(new Error('thrown'), { status: 418 });
  };
  const rejecting: RequestHandler = async () => {
    throw Object.assign(new Error('rejected'), { status: 409 });
  };
  const notFound: RequestHandler = (_req, _res, next) => next(Object.assign(new Error('none'), { status: 404 }));
  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    res.status(err.status ?? 500).json({ error: err.message });
  };
  app.post('/hot', answer);
  app.post('/throws', throwing);
  app.post('/rejects', rejecting);
  app.use(notFound);
  app.use(onError);
  serveDirectly(
    app,
    [
      { method: 'post', path: '/hot', chain: [express.json(), answer, notFound] },
      { method: 'post', path: '/throws', chain: [throwing, notFound] },
      { method: 'post', path: '/rejects', chain: [rejecting, notFound] },
    ],
    onError,
  );

  beforeEach(() => {
    seen.router = 0;
  });

  it('serves the exact path without the router, with query, body and locals as Express gives them', async () => {
    const res = await request(app)
      .post('/hot?a=1&b=two')
      .send({ x: [1, 2] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      body: { x: [1, 2] },
      query: { a: '1', b: 'two' },
      originalUrl: '/hot?a=1&b=two',
      locals: 'object',
    });
    expect(seen.router).toBe(0);
  });

  it('leaves every other method and spelling of the path to the router, which answers the same', async () => {
    const routed = await request(app)
      .post('/HOT?a=1&b=two')
      .send({ x: [1, 2] });
    expect(routed.status).toBe(200);
    expect(routed.body).toMatchObject({ body: { x: [1, 2] }, query: { a: '1', b: 'two' } });
    expect(seen.router).toBe(1);
    const get = await request(app).get('/hot');
    expect(get.status).toBe(404);
    expect(seen.router).toBe(2);
  });

  it('refuses a chain holding error middleware, and fails loudly on next("route")', async () => {
    const errorMiddleware: ErrorRequestHandler = (_err, _req, _res, next) => next();
    expect(() =>
      serveDirectly(
        express(),
        [{ method: 'post', path: '/x', chain: [errorMiddleware as unknown as RequestHandler] }],
        onError,
      ),
    ).toThrow("POST /x: a hot path's chain cannot hold error middleware");
    const skipping = express();
    serveDirectly(
      skipping,
      [{ method: 'post', path: '/skip', chain: [(_req, _res, next) => next('route'), answer] }],
      onError,
    );
    const res = await request(skipping).post('/skip').send({});
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: "next('route') is not supported on a hot path" });
  });

  it('hands a thrown error and a rejected promise to the error handler', async () => {
    const thrown = await request(app).post('/throws').send({});
    expect(thrown.status).toBe(418);
    expect(thrown.body).toEqual({ error: 'thrown' });
    const rejected = await request(app).post('/rejects').send({});
    expect(rejected.status).toBe(409);
    expect(rejected.body).toEqual({ error: 'rejected' });
    expect(seen.router).toBe(0);
  });
});

describe('mounting hot routes', () => {
  const hotArea: Area = {
    tag: 'Test',
    routes: [
      {
        method: 'post',
        path: '/',
        summary: 'hot',
        access: 'public',
        hotPath: true,
        handler: () => (_req, res) => res.end(),
      },
    ],
  };
  const everywhere: Area = {
    tag: 'Test',
    routes: [],
    middleware: (router) => router.use((_req, _res, next) => next()),
  };

  it('refuses a hot route whose path an area mounted before it could take (the direct lane would skip that area)', async () => {
    const h = await createHarness();
    try {
      expect(() =>
        mountAreas(express(), h.ctx, [
          { prefix: '', family: 'catalog', area: everywhere },
          { prefix: '/hot', family: 'catalog', area: hotArea },
        ]),
      ).toThrow("/hot: its area must be mounted before '' (a hot path)");
      expect(
        mountAreas(express(), h.ctx, [
          { prefix: '/hot', family: 'catalog', area: hotArea },
          { prefix: '', family: 'catalog', area: everywhere },
        ]).map((r) => r.path),
      ).toEqual(['/hot']);
    } finally {
      await h.close();
    }
  });
});

describe('the hot routes of the API', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h.close());

  // Express matches paths without regard to letter case: the other spelling takes the router to the same handlers.
  const pairs = [
    ['/v1/messages', '/V1/Messages'],
    ['/v1/messages/count_tokens', '/v1/messages/Count_Tokens'],
    ['/v1/chat/completions', '/v1/chat/Completions'],
    ['/v1/responses', '/v1/Responses'],
    ['/api/v1/telemetry', '/api/v1/Telemetry'],
  ];

  it.each(pairs)('%s answers as the router does: headers, refusals in the family shape', async (direct, routed) => {
    for (const send of [
      (path: string) => h.http.post(path).send({}),
      (path: string) => h.http.post(path).set('content-type', 'application/json').send('{"unclosed": '),
      (path: string) => h.http.post(path).set('content-type', 'text/plain').send('text'),
    ]) {
      const [a, b] = [await send(direct), await send(routed)];
      expect(a.status).toBeGreaterThanOrEqual(400);
      expect({ status: a.status, body: a.body }).toEqual({ status: b.status, body: b.body });
      for (const header of ['content-security-policy', 'x-content-type-options', 'content-type']) {
        expect(a.headers[header]).toBe(b.headers[header]);
      }
      expect(a.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
