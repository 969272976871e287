// The lean lane (api/http/lean-lane.ts): a hot route with a lean answer serves a plain JSON body on Node's own
// objects; every other body goes to the route's Express chain, and both answer alike, errors included.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { jest } from '@jest/globals';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { serveDirectly } from '../../api/http/direct-lane.js';
import type { LeanRoute } from '../../api/http/lean-lane.js';
import { createActors, publishItem } from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';

describe('serveDirectly with a lean route on a small application', () => {
  const seen = { begin: 0 };
  const app = express();
  const chainAnswer: RequestHandler = (req, res) => {
    res.json({ lane: 'chain', body: req.body });
  };
  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    res.status(err.status ?? 500).json({ error: err.message, code: err.code });
  };
  const lean: LeanRoute = {
    maxBytes: 64,
    begin: () => {
      seen.begin++;
      return '00000000-0000-4000-8000-000000000000';
    },
    headers: (id) => ['x-begun', 'yes', 'x-correlation-id', id],
    address: (req) => req.socket.remoteAddress ?? 'unknown',
    // Not an async function: one case throws before any promise is made.
    answer: (body) => {
      const value = body as { leave?: boolean; fail?: boolean; failNow?: boolean; cycle?: boolean };
      if (value.failNow) throw Object.assign(new Error('refused now'), { status: 409, code: 'Test.RefusedNow' });
      if (value.fail) return Promise.reject(Object.assign(new Error('refused'), { status: 422, code: 'Test.Refused' }));
      if (value.cycle) {
        const cycle: Record<string, unknown> = {};
        cycle.self = cycle;
        return Promise.resolve(cycle);
      }
      return Promise.resolve(value.leave ? undefined : { lane: 'lean', body });
    },
    rest: [express.json(), chainAnswer],
  };
  serveDirectly(app, [{ method: 'post', path: '/hot', chain: [express.json(), chainAnswer], lean }], onError);

  beforeEach(() => {
    seen.begin = 0;
  });

  it('answers a plain JSON body (UTF-8, with a length, uncompressed) in the lean lane', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"']) {
      const res = await request(app).post('/hot').set('content-type', type).send('{"a":1}');
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { lane: 'lean', body: { a: 1 } } });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-begun']).toBe('yes');
      expect(res.headers['x-correlation-id']).toBe('00000000-0000-4000-8000-000000000000');
    }
    expect(seen.begin).toBe(3);
  });

  it('leaves every other body to the chain: another JSON type, a charset, a large, empty, chunked or compressed one', async () => {
    const sends = [
      request(app).post('/hot').set('content-type', 'application/vnd.api+json').send('{"a":1}'),
      request(app).post('/hot').set('content-type', 'application/json; charset=latin1').send('{"a":1}'),
      request(app)
        .post('/hot')
        .set('content-type', 'application/json')
        .send({ a: 'x'.repeat(64) }),
      request(app)
        .post('/hot')
        .set('content-type', 'application/json')
        .set('transfer-encoding', 'chunked')
        .send('{"a":1}'),
      request(app)
        .post('/hot')
        .set('content-type', 'application/json')
        .set('content-encoding', 'identity')
        .send('{"a":1}'),
      request(app).post('/hot').set('content-type', 'application/json').send(''),
    ];
    for (const send of sends) {
      const res = await send;
      expect(res.body.lane ?? res.body.error).not.toBe('lean');
    }
    expect(seen.begin).toBe(0);
  });

  it('hands a body its answer leaves to the chain, parsed once, and an error to the error handler', async () => {
    const left = await request(app).post('/hot').set('content-type', 'application/json').send('{"leave":true}');
    expect(left.body).toEqual({ lane: 'chain', body: { leave: true } });
    const failed = await request(app).post('/hot').set('content-type', 'application/json').send('{"fail":true}');
    expect({ status: failed.status, body: failed.body }).toEqual({
      status: 422,
      body: { error: 'refused', code: 'Test.Refused' },
    });
    const failedNow = await request(app).post('/hot').set('content-type', 'application/json').send('{"failNow":true}');
    expect({ status: failedNow.status, code: failedNow.body.code }).toEqual({ status: 409, code: 'Test.RefusedNow' });
    const unwritable = await request(app).post('/hot').set('content-type', 'application/json').send('{"cycle":true}');
    expect(unwritable.status).toBe(500);
    const notJson = await request(app).post('/hot').set('content-type', 'application/json').send('{"a":');
    expect({ status: notJson.status, code: notJson.body.code }).toEqual({ status: 400, code: 'Request.InvalidJson' });
    expect(seen.begin).toBe(5);
    // The headers of every answer reach the chain's answers and the error handler's too.
    for (const res of [left, failed, failedNow, unwritable, notJson]) expect(res.headers['x-begun']).toBe('yes');
  });
});

describe('POST /api/v1/telemetry in the lean lane and in the Express chain', () => {
  let h: Harness;
  let slug: string;
  beforeAll(async () => {
    h = await createHarness({ TELEMETRY_RATE_LIMIT_PER_MINUTE: '0' });
    slug = (await publishItem(h, await createActors(h), 'agent')).slug;
  });
  afterAll(async () => h.close());

  // `application/json` takes the lean lane; `application/vnd.api+json`, read by the same JSON parser, the chain.
  const lanes = ['application/json', 'application/vnd.api+json'];
  const withoutVarying = (headers: Record<string, string>) => {
    const { date: _date, 'x-correlation-id': _id, ...rest } = headers;
    return rest;
  };
  const bodies: [string, () => string][] = [
    ['one event', () => JSON.stringify({ itemType: 'agent', slug, eventType: 'view' })],
    ['a batch', () => JSON.stringify({ events: [{ itemType: 'agent', slug, eventType: 'view' }, { slug: 1 }] })],
    ['an unknown item', () => JSON.stringify({ itemType: 'agent', slug: 'no-such-item', eventType: 'view' })],
    ['an invalid event', () => JSON.stringify({ itemType: 'plugin', slug, eventType: 'view' })],
    ['text that is not JSON', () => '{"itemType": '],
    ['a number', () => '3'],
    ['a string', () => '"view"'],
    ['blanks', () => '   '],
    [
      'a byte order mark before the JSON',
      () => `\ufeff${JSON.stringify({ itemType: 'agent', slug, eventType: 'view' })}`,
    ],
    ['nesting past the limit', () => `${'['.repeat(200)}${']'.repeat(200)}`],
    [
      'an unpaired surrogate',
      () => JSON.stringify({ itemType: 'agent', slug: '\\ud800', eventType: 'view' }).replace('\\\\', '\\'),
    ],
    // Review #102: body-parser reads the empty text left as {}.
    ['a byte order mark alone', () => '\ufeff'],
  ];

  it.each(bodies)('answers %s alike: status, body and headers', async (_label, text) => {
    const [lean, chain] = await Promise.all(
      lanes.map((type) => h.http.post('/api/v1/telemetry').set('content-type', type).send(text())),
    );
    if (!lean || !chain) throw new Error('no answer');
    expect({ status: lean.status, body: lean.text }).toEqual({ status: chain.status, body: chain.text });
    expect(withoutVarying(lean.headers)).toEqual(withoutVarying(chain.headers));
    expect(lean.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
    // Alike, and not alike in leaving them out: every answer carries the data-only security headers.
    expect(lean.headers['content-security-policy']).toContain("default-src 'none'");
    expect(lean.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves a plain JSON body without Express’s request (its req.ip is never read), any other through it', async () => {
    // Express's request prototype is the application's `request`: the chain reads the caller's address from `ip`.
    const ip = jest.spyOn(h.app.request as { ip: string }, 'ip', 'get');
    try {
      const event = JSON.stringify({ itemType: 'agent', slug, eventType: 'view' });
      const lean = await h.http.post('/api/v1/telemetry').set('content-type', 'application/json').send(event);
      expect(lean.status).toBe(200);
      expect(ip).not.toHaveBeenCalled();
      const chain = await h.http.post('/api/v1/telemetry').set('content-type', 'application/vnd.api+json').send(event);
      expect(chain.status).toBe(200);
      expect(ip).toHaveBeenCalled();
    } finally {
      ip.mockRestore();
    }
  });

  it('answers the one event with {recorded:true} and refuses the others in the catalog shape', async () => {
    const send = (text: string) => h.http.post('/api/v1/telemetry').set('content-type', 'application/json').send(text);
    const one = await send(JSON.stringify({ itemType: 'agent', slug, eventType: 'view' }));
    expect({ status: one.status, body: one.body }).toEqual({ status: 200, body: { recorded: true } });
    const codes = [];
    for (const [, text] of bodies.slice(2))
      codes.push([(await send(text())).status, JSON.parse((await send(text())).text).title]);
    expect(codes).toEqual([
      [404, 'Agent.NotFound'],
      [400, 'Telemetry.Invalid'],
      [400, 'Request.InvalidJson'],
      [400, 'Request.InvalidJson'],
      [400, 'Request.InvalidJson'],
      [400, 'Request.InvalidJson'],
      [200, undefined],
      [400, 'Request.TooDeep'],
      [400, 'Request.InvalidText'],
      [400, 'Telemetry.Invalid'],
    ]);
  });

  // Review #102: the lean lane took content types the route's parser reads otherwise. The path with a trailing slash
  // is served by Express's router, through the whole chain. Sent over a socket as they are (latin1 header bytes: a
  // no-break space is the byte A0).
  it.each([
    'application/json; charset=utf-8"',
    'application/json\u00a0',
    'application/json; charset=utf-8\u00a0',
    'application/json;\tcharset=utf-8',
    'application/json ; charset="utf-8"',
  ])('answers one event sent as %j as the Express chain does', async (type) => {
    const server = h.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const event = JSON.stringify({ itemType: 'agent', slug, eventType: 'view' });
    const send = async (path: string) => {
      const socket = net.connect(port, '127.0.0.1');
      const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${event.length}\r\n`;
      socket.write(Buffer.from(`${head}Connection: close\r\n\r\n${event}`, 'latin1'));
      const chunks: Buffer[] = [];
      for await (const chunk of socket) chunks.push(chunk as Buffer);
      const answer = Buffer.concat(chunks).toString('utf8');
      return { status: answer.slice(9, 12), body: answer.slice(answer.indexOf('\r\n\r\n') + 4) };
    };
    try {
      const [lean, chain] = [await send('/api/v1/telemetry'), await send('/api/v1/telemetry/')];
      expect(chain.status).toMatch(/^[24]\d\d$/);
      expect(lean).toEqual(chain);
    } finally {
      server.close();
    }
  });
});
