// A project's request list reads only the newest REQUEST_LIST_WINDOW requests (security review #74): a request log is
// written for every gateway request, and the list's count and offset used to read all of a project's rows at every
// call (a million rows: ~170 ms for the count and ~680 ms for the deepest page, each call, for any member, uncounted).
import { requestLogs } from '../../shared/db/schema/index.js';
import { REQUEST_LIST_WINDOW } from '../../shared/gateway/request-log-reads.js';
import { type GatewayWorld, openGatewayWorld } from '../support/gateway.js';
import { inOrg } from '../support/org-fixtures.js';

const OLDER = 50;
let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '1' });
  // A busy project's history: row i is i seconds old; every tenth a web search.
  const now = Date.now();
  const rows = Array.from({ length: REQUEST_LIST_WINDOW + OLDER }, (_, i) => ({
    organizationId: w.org.id,
    projectId: w.projectId,
    operation: i % 10 === 0 ? 'web.search' : 'messages',
    status: 'succeeded',
    createdAt: new Date(now - i * 1000),
  }));
  for (let i = 0; i < rows.length; i += 1000) await w.h.ctx.db.insert(requestLogs).values(rows.slice(i, i + 1000));
});
afterAll(() => w.close());

const list = (q: string) =>
  w.h.http.get(`/api/projects/${w.projectId}/requests?${q}`).set(inOrg(w.org.admin, w.org.id));

it('counts and pages only the newest requests of the project, filters within them', async () => {
  const first = await list('size=100');
  expect(first.status).toBe(200);
  expect(first.body).toMatchObject({ total: REQUEST_LIST_WINDOW, page: 1, size: 100, reach: REQUEST_LIST_WINDOW });
  const last = await list(`size=100&page=${REQUEST_LIST_WINDOW / 100}`);
  expect(last.body.data).toHaveLength(100);
  const past = await list(`size=100&page=${REQUEST_LIST_WINDOW / 100 + 1}`);
  expect([past.status, past.body.data, past.body.total]).toEqual([200, [], REQUEST_LIST_WINDOW]);
  const searches = await list('operation=web.search&size=10');
  expect(searches.body.total).toBe(REQUEST_LIST_WINDOW / 10);
  expect(searches.body.data.every((r: { operation: string }) => r.operation === 'web.search')).toBe(true);
});
