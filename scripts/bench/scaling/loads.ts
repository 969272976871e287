// The four loads the scaling benchmark measures, spread round-robin over the API origins: paid gateway requests
// (32 closed-loop clients), telemetry events (64, counted once the flush reached PostgreSQL), web-fetch pages
// (20-URL batches, 4 at once) and video tasks (created here, polled by the workers until none is open).
import { eq, sql } from 'drizzle-orm';
import { Agent, request } from 'undici';
import type { AppContext } from '../../../shared/context.js';
import { catalogItems } from '../../../shared/db/schema/index.js';
import { normalizeVideoRequest } from '../../../shared/video/video-request.js';
import { createVideoTask } from '../../../shared/video/video-tasks.js';
import type { SimulatedProvider } from '../../simulated-provider/server.js';
import type { ScalingData } from './scaling-data.js';

const TASKS = '/api/v3/contents/generations/tasks/';

const messageBody = {
  model: 'claude-haiku-4-5',
  max_tokens: 64,
  messages: [{ role: 'user', content: 'ping' }],
};

export function scalingLoads(ctx: AppContext, data: ScalingData, siteOrigin: string, seconds: number) {
  const { token } = data;
  const agent = new Agent({ connections: 128 });
  async function post(url: string, headers: Record<string, string>, body: unknown) {
    const res = await request(url, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${url} answered ${res.statusCode}: ${text.slice(0, 300)}`);
    return text;
  }

  /** `concurrency` closed-loop clients for `seconds`, spread round-robin over the API origins; returns the count. */
  async function closedLoop(
    origins: string[],
    concurrency: number,
    send: (origin: string, i: number) => Promise<void>,
  ) {
    let done = 0;
    let next = 0;
    const until = Date.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: concurrency }, async (_, c) => {
        while (Date.now() < until) {
          await send(origins[c % origins.length] as string, next++);
          done++;
        }
      }),
    );
    return done;
  }

  const usageCount = async () =>
    Number(
      (
        await ctx.db.select({ n: catalogItems.usageCount }).from(catalogItems).where(eq(catalogItems.id, data.agentId))
      )[0]?.n ?? 0,
    );

  let page = 0;
  const gatewayHeaders = { 'x-api-key': token, 'anthropic-version': '2023-06-01' };

  /** JIT, connections, the key cache, the QueueEvents listeners (a slow first fetch may time out). */
  async function warmUp(origins: string[]) {
    for (const o of origins) {
      await post(`${o}/v1/messages`, gatewayHeaders, messageBody);
      await post(
        `${o}/v1/web/fetch`,
        { authorization: `Bearer ${token}` },
        { urls: [`${siteOrigin}/page/${page++}`] },
      ).catch((err: Error) => console.log(`  warm-up fetch: ${err.message.slice(0, 120)}`));
    }
  }

  const messages = (origins: string[]) => () =>
    closedLoop(origins, 32, async (o) => {
      await post(`${o}/v1/messages`, gatewayHeaders, messageBody);
    });

  // Every event from a client of its own: usage counts at most 1,000 per client, item and day (SPEC), and a load
  // that reused 50 clients passed that cap within a run, so accepted events stopped counting and the wait below
  // never ended.
  let client = 0;
  async function telemetryLoad(origins: string[]) {
    const before = await usageCount();
    return async () => {
      const sent = await closedLoop(origins, 64, async (o, i) => {
        await post(
          `${o}/api/v1/telemetry`,
          { 'x-forwarded-for': `10.${i % 250}.${(i >> 8) % 250}.1` },
          { itemType: 'agent', slug: 'bench-agent', eventType: 'usage', clientId: `c${client++}` },
        );
      });
      // counted once the flush (every second, by a worker) has written every accepted event to PostgreSQL; a count
      // that stops moving short of it is an error, not a wait
      let counted = 0;
      let still = 0;
      while (counted < sent) {
        await new Promise((r) => setTimeout(r, 100));
        const now = (await usageCount()) - before;
        still = now === counted ? still + 1 : 0;
        counted = now;
        if (still > 300) throw new Error(`telemetry: ${counted} of ${sent} accepted events counted after 30 s still`);
      }
      return sent;
    };
  }

  const webFetch = (origins: string[]) => async () => {
    // a batch the API gave up on (503 after its wait) counts no pages; how many is printed
    let failed = 0;
    const batches = await closedLoop(origins, 4, async (o) => {
      const urls = Array.from({ length: 20 }, () => `${siteOrigin}/page/${page++}`);
      const text = await post(`${o}/v1/web/fetch`, { authorization: `Bearer ${token}` }, { urls }).catch(() => null);
      const body = text ? (JSON.parse(text) as { items?: { error?: string }[] }) : null;
      if (!body || body.items?.some((i) => i.error)) failed++;
    });
    if (failed > 0) console.log(`  web-fetch: ${failed} of ${batches} batches failed (timed out under load)`);
    return (batches - failed) * 20;
  };

  const video = (videoTasks: number) => async () => {
    let created = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (created < videoTasks) {
          const n = created++;
          const normalized = normalizeVideoRequest(
            { model: data.videoModel.id, prompt: `bench video ${n}`, duration: 5 },
            data.videoModel,
          );
          await createVideoTask(ctx, data.caller, { model: data.videoModel, normalized });
        }
      }),
    );
    for (;;) {
      const { rows: open } = await ctx.db.execute<{ n: string }>(
        sql`select count(*) as n from video_tasks where status in ('queued','in_progress')`,
      );
      if (Number(open[0]?.n) === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    return videoTasks;
  };

  return { warmUp, messages, telemetryLoad, webFetch, video, close: () => agent.close() };
}

/** Of the gaps between two polls of one task the simulator saw, how many were 3-5 s (the poll interval is 4 s). */
export function pollsOnTime(sim: SimulatedProvider): { onTime: number; gaps: number } {
  const polls = new Map<string, number[]>();
  for (const r of sim.state.requests) {
    if (r.method !== 'GET' || !r.path.startsWith(TASKS)) continue;
    const list = polls.get(r.path) ?? [];
    list.push(Date.parse(r.at));
    polls.set(r.path, list);
  }
  let gaps = 0;
  let onTime = 0;
  for (const times of polls.values()) {
    times.pop(); // the rehost job's read of the download address, not a poll
    for (let i = 1; i < times.length; i++) {
      gaps++;
      const gap = (times[i] as number) - (times[i - 1] as number);
      if (gap >= 3000 && gap <= 5000) onTime++;
    }
  }
  return { onTime, gaps };
}
