import { fetch } from 'undici';
import { type SimulatedProvider, startSimulatedProvider } from '../../scripts/simulated-provider/server.js';

describe('simulated provider: Tavily and Brave search', () => {
  let sim: SimulatedProvider;
  const tavily = async (
    body: Record<string, unknown>,
    headers: Record<string, string> = { authorization: 'Bearer tvly-sim' },
  ) => {
    const res = await fetch(`${sim.url}/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };
  const brave = async (query: string, token: string | undefined = 'brave-sim', path = '/res/v1/web/search') => {
    const res = await fetch(`${sim.url}${path}?${query}`, {
      headers: token ? { 'x-subscription-token': token, accept: 'application/json' } : {},
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    sim = await startSimulatedProvider();
  });
  afterAll(() => sim.close());

  it('answers Tavily with max_results deterministic results, scores in 0..1 and not pre-sorted', async () => {
    const first = await tavily({ query: 'solar panels', max_results: 7 });
    expect(first.status).toBe(200);
    const body = first.body as {
      query: string;
      results: { url: string; title: string; content: string; score: number; raw_content: unknown }[];
      images: unknown[];
      response_time: number;
    };
    expect(body).toMatchObject({ query: 'solar panels', images: [], answer: null, response_time: expect.any(Number) });
    expect(body.results).toHaveLength(7);
    for (const r of body.results) {
      expect(r).toEqual({
        url: expect.stringMatching(/^https:\/\/example\.com\//),
        title: expect.any(String),
        content: expect.any(String),
        score: expect.any(Number),
        raw_content: null,
      });
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
    }
    const scores = body.results.map((r) => r.score);
    expect(scores).not.toEqual([...scores].sort((a, b) => b - a));
    expect((await tavily({ query: 'solar panels', max_results: 7 })).body).toEqual(first.body);
  });

  it('adds Tavily images, raw content and news dates inside the requested range on request', async () => {
    const res = await tavily(
      {
        api_key: 'tvly-in-body',
        query: 'city bikes',
        max_results: 3,
        include_images: true,
        include_raw_content: true,
        topic: 'news',
        start_date: '2024-03-01',
        end_date: '2024-03-31',
      },
      {},
    );
    expect(res.status).toBe(200);
    const body = res.body as { images: string[]; results: { raw_content: string; published_date: string }[] };
    expect(body.images.length).toBeGreaterThan(0);
    expect(body.images.every((u) => u.startsWith('https://example.com/'))).toBe(true);
    for (const r of body.results) {
      expect(r.raw_content).toEqual(expect.any(String));
      expect(r.published_date >= '2024-03-01' && r.published_date <= '2024-03-31').toBe(true);
    }
    const described = await tavily({ query: 'city bikes', include_images: true, include_image_descriptions: true });
    expect((described.body.images as unknown[])[0]).toEqual({
      url: expect.any(String),
      description: expect.any(String),
    });
  });

  it('answers Tavily errors as {detail:{error}} with the right status', async () => {
    expect(await tavily({ query: 'x' }, {})).toMatchObject({
      status: 401,
      body: { detail: { error: expect.stringContaining('Unauthorized') } },
    });
    expect(await tavily({ query: '' })).toMatchObject({ status: 400, body: { detail: { error: expect.any(String) } } });
    expect((await tavily({ query: 'x', max_results: 21 })).status).toBe(400);
    expect((await tavily({ query: 'x', start_date: '03/01/2024' })).status).toBe(400);
    expect((await tavily({ query: 'x [upstream-error]' })).status).toBe(500);
    const limited = await tavily({ query: 'x [rate-limited]' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
  });

  it('answers Brave web search in its shape with count results', async () => {
    const res = await brave('q=solar%20panels&count=4&extra_snippets=true');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'search',
      query: { original: 'solar panels' },
      web: { type: 'search', family_friendly: true },
    });
    const results = (res.body.web as { results: Record<string, unknown>[] }).results;
    expect(results).toHaveLength(4);
    for (const r of results) {
      expect(r).toMatchObject({
        type: 'search_result',
        title: expect.any(String),
        url: expect.stringMatching(/^https:\/\/example\.com\//),
        description: expect.any(String),
        page_age: expect.any(String),
        meta_url: { hostname: 'example.com' },
        extra_snippets: [expect.any(String)],
      });
    }
    expect(new Set(results.map((r) => r.url)).size).toBe(4);
    const images = await brave('q=solar&count=2', 'brave-sim', '/res/v1/images/search');
    expect(images.body).toMatchObject({
      type: 'images',
      results: [{ type: 'image_result', properties: { url: expect.stringMatching(/^https:\/\/example\.com\//) } }, {}],
    });
  });

  it('answers Brave errors as ErrorResponse 422 for a missing token or query', async () => {
    expect(await brave('q=x', '')).toMatchObject({
      status: 422,
      body: {
        type: 'ErrorResponse',
        error: { code: 'VALIDATION', status: 422, meta: { errors: [{ loc: ['header', 'x-subscription-token'] }] } },
      },
    });
    expect(await brave('count=3')).toMatchObject({ status: 422, body: { error: { code: 'VALIDATION' } } });
    expect(await brave('q=x&count=21')).toMatchObject({ status: 422 });
    expect(await brave('q=x%20%5Brate-limited%5D')).toMatchObject({
      status: 429,
      body: { error: { code: 'RATE_LIMITED' } },
    });
  });
});
