// The soak's traffic: repeating clients, each with its own telemetry client id, address and API key, sending a
// weighted mix of requests (catalog reads, telemetry, /v1/messages plain and streamed, web fetches, logins, video
// creates) at a steady pace over a fixed number of connections.
import { Agent, request } from 'undici';
import { SOAK_PASSWORD, type SoakData } from './soak-data.js';

type Client = { clientId: string; address: string; token: string; slug: string };
type Action = { family: string; weight: number; send(c: Client): Promise<number> };

/** Latencies and non-2xx statuses of the current sampling interval, per route family. */
export type IntervalFigures = { latencies: Map<string, number[]>; statuses: Map<string, number>; requests: number };

const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)] as T;

export function clientMix(
  base: string,
  siteOrigin: string,
  data: SoakData,
  options: { clientCount: number; concurrency: number },
) {
  const clients: Client[] = Array.from({ length: options.clientCount }, (_, i) => ({
    clientId: `soak-client-${i}`,
    address: `10.${(i >> 8) & 255}.${i & 255}.7`,
    token: data.tokens[i % data.tokens.length] as string,
    // Each client reports on the one item it has installed, as a real installation does.
    slug: data.slugs[i % data.slugs.length] as string,
  }));
  const agent = new Agent({ connections: options.concurrency * 2 });
  async function call(
    path: string,
    init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: unknown },
  ) {
    const res = await request(`${base}${path}`, {
      dispatcher: agent,
      method: init.method ?? 'GET',
      headers: { 'content-type': 'application/json', ...init.headers },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    await res.body.dump();
    return res.statusCode;
  }
  const gateway = (c: Client) => ({
    authorization: `Bearer ${c.token}`,
    'anthropic-version': '2023-06-01',
    'x-forwarded-for': c.address,
  });
  let pageCounter = 0;
  const actions: Action[] = [
    {
      family: 'catalog',
      weight: 30,
      send: (c) => call('/api/v1/agent', { headers: { 'x-forwarded-for': c.address } }),
    },
    {
      family: 'catalog',
      weight: 10,
      send: (c) => call(`/api/v1/agent/${pick(data.slugs)}`, { headers: { 'x-forwarded-for': c.address } }),
    },
    {
      family: 'telemetry',
      weight: 35,
      send: (c) =>
        call('/api/v1/telemetry', {
          method: 'POST',
          headers: { 'x-forwarded-for': c.address },
          body: { itemType: 'agent', slug: c.slug, eventType: 'usage', clientId: c.clientId },
        }),
    },
    {
      family: 'messages',
      weight: 10,
      send: (c) =>
        call('/v1/messages', {
          method: 'POST',
          headers: gateway(c),
          body: { model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'ping' }] },
        }),
    },
    {
      family: 'messages-stream',
      weight: 5,
      send: (c) =>
        call('/v1/messages', {
          method: 'POST',
          headers: gateway(c),
          body: {
            model: 'claude-haiku-4-5',
            max_tokens: 64,
            stream: true,
            messages: [{ role: 'user', content: 'ping' }],
          },
        }),
    },
    {
      family: 'web-fetch',
      weight: 5,
      send: (c) =>
        call('/v1/web/fetch', {
          method: 'POST',
          headers: gateway(c),
          body: {
            urls: [`${siteOrigin}/page/${pageCounter++ % 100}`, `${siteOrigin}/page/${(pageCounter * 7) % 100}`],
          },
        }),
    },
    {
      family: 'login',
      weight: 2,
      send: (c) =>
        call('/api/v1/auth/login', {
          method: 'POST',
          headers: { 'x-forwarded-for': c.address },
          body: { email: pick(data.loginEmails), password: SOAK_PASSWORD },
        }),
    },
    {
      family: 'video-create',
      weight: 0.5,
      send: (c) =>
        call('/v1/videos', {
          method: 'POST',
          headers: gateway(c),
          body: { model: 'seedance-1-0-pro', prompt: `soak video for ${c.clientId}`, duration: 5 },
        }),
    },
  ];
  const totalWeight = actions.reduce((s, a) => s + a.weight, 0);
  const chooseAction = () => {
    let r = Math.random() * totalWeight;
    for (const a of actions) {
      r -= a.weight;
      if (r < 0) return a;
    }
    return actions[0] as Action;
  };

  const figures: IntervalFigures = { latencies: new Map(), statuses: new Map(), requests: 0 };

  /** `concurrency` loops, each paced to its share of `rate` requests/s, until `runMs` after `started`. */
  function run(started: number, runMs: number, rate: number) {
    const pace = (options.concurrency / rate) * 1000;
    return Array.from({ length: options.concurrency }, async () => {
      while (Date.now() - started < runMs) {
        const action = chooseAction();
        const t0 = performance.now();
        let status: string;
        try {
          status = String(await action.send(pick(clients)));
        } catch (error) {
          status = (error as { code?: string }).code ?? 'network';
        }
        const ms = performance.now() - t0;
        figures.requests++;
        const list = figures.latencies.get(action.family) ?? [];
        list.push(ms);
        figures.latencies.set(action.family, list);
        const key = `${action.family} ${status}`;
        if (!status.startsWith('2')) figures.statuses.set(key, (figures.statuses.get(key) ?? 0) + 1);
        if (ms < pace) await new Promise((r) => setTimeout(r, pace - ms));
      }
    });
  }

  return { figures, run, close: () => agent.close() };
}
