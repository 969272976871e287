// What the OpenAI-shaped gateway routes (/v1/chat/completions, /v1/responses) share in their tests: a poster of JSON
// bodies with a key, and the refusals every paid route owes in OpenAI's error shape.
import { aProjectWithKey } from './gateway.js';
import { bearer, createUser } from './identity.js';
import type { ClientWorld } from './listening-gateway.js';
import { inOrg } from './org-fixtures.js';

export type Posted = { status: number; headers: Headers; text: string };

/** Posts a body as JSON to `path` of the world's gateway, with the world's project key unless other headers are given. */
export function openAiPoster(world: () => ClientWorld, path: string) {
  return async (body: unknown, headers: Record<string, string> = bearer(world().key)): Promise<Posted> => {
    const res = await fetch(`${world().baseURL}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
}

/** 429 once the project quota is used, 402 for an empty wallet, 401 without a key, 403 for a key without a project. */
export async function expectOpenAiRefusals(
  w: ClientWorld,
  post: (body: unknown, headers?: Record<string, string>) => Promise<Posted>,
  good: unknown,
): Promise<void> {
  const limited = await aProjectWithKey(w.h, '5');
  await w.h.http
    .post(`/api/projects/${limited.projectId}/quota`)
    .set(inOrg(limited.org.admin, limited.org.id))
    .send({ dailyRequestLimit: 1, enforceQuota: true });
  expect((await post(good, bearer(limited.key))).status).toBe(200);
  const over = await post(good, bearer(limited.key));
  expect(over.status).toBe(429);
  expect(JSON.parse(over.text).error.type).toBe('rate_limit_error');
  const broke = await aProjectWithKey(w.h);
  const poor = await post(good, bearer(broke.key));
  expect(poor.status).toBe(402);
  expect(JSON.parse(poor.text).error.type).toBe('insufficient_quota');
  expect((await post(good, {})).status).toBe(401);
  const user = await createUser(w.h);
  expect((await post(good, bearer(user.apiKey))).status).toBe(403);
}
