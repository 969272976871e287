// Route parameters never steer the console's API calls (security review): React Router decodes `%2F` inside a
// parameter (`/org/projects/..%2F..%2Fx` gives projectId `../../x`), and a page that put it into a fetch path as it
// is sent the session cookie's same-origin requests to `/x`, `/x/members`, ... Every API path is built with each
// parameter encoded (console/src/api/paths.ts), and an id that must be a UUID and is not shows the page's not-found
// state without asking the API.
import type { Page } from 'playwright-core';
import { createUser } from '../support/identity.js';
import { anOrganization } from '../support/org-fixtures.js';
import { type ConsoleWorld, checkPage, openConsoleWorld, signIn } from './console-world.js';

let w: ConsoleWorld;
beforeAll(async () => {
  w = await openConsoleWorld();
});
afterAll(async () => w?.close());

const crafted = '..%2F..%2Fx';

/** Every same-origin request the page makes from now on: its path as it left the browser. */
function recordRequests(page: Page, origin: string): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin === origin) paths.push(url.pathname);
  });
  return paths;
}

/** A request the crafted parameter steered: any path it resolved to (`/x`, `/api/x`, `/x/members`), or one under a
 * route family's id segment that is not the parameter itself, encoded. */
const steered = (paths: string[]) =>
  paths.filter((p) => /(^|\/)x(\/|$)/.test(p) || p.includes('/../') || (p.includes('..') && !p.includes('..%2F')));

describe('a crafted route parameter', () => {
  it('shows the project page’s not-found state for /org/projects/..%2F..%2Fx and calls no API path outside it', async () => {
    const admin = await createUser(w.h, { name: 'Paula Params' });
    await anOrganization(w.h, admin, 'Param Works');
    const page = await w.newPage();
    await signIn(page, admin.email, admin.password, '/org/projects');
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();

    const paths = recordRequests(page, w.baseUrl);
    await page.goto(`/org/projects/${crafted}`);
    await page.getByRole('alert').filter({ hasText: 'No such project. (Project.NotFound)' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(steered(paths)).toEqual([]);
    // Nothing under /api/projects/ at all: the id is no UUID, so the page does not ask.
    expect(paths.filter((p) => p.startsWith('/api/projects/'))).toEqual([]);
    expect(paths).toContain(`/org/projects/${crafted}`);
    await checkPage(page, 'project-crafted-id-not-found');
  });

  it('does the same on the gateway, draft and review pages', async () => {
    const user = await createUser(w.h, { name: 'Rita Roles', roles: ['Publisher', 'Moderator'] });
    await anOrganization(w.h, user, 'Param Works Two');
    const page = await w.newPage();
    await signIn(page, user.email, user.password, '/account');
    const paths = recordRequests(page, w.baseUrl);
    for (const [address, notFound] of [
      [`/gateway/${crafted}`, 'No such project. (Project.NotFound)'],
      [`/publisher/mcp/${crafted}`, 'No such item. (Mcp.NotFound)'],
      [`/moderation/skill/${crafted}`, 'No such item. (Skill.NotFound)'],
    ] as const) {
      await page.goto(address);
      await page.getByRole('alert').filter({ hasText: notFound }).waitFor();
      await page.waitForLoadState('networkidle');
    }
    expect(steered(paths)).toEqual([]);
    expect(paths.filter((p) => /^\/api\/(projects\/|v1\/publisher\/mcp\/|v1\/moderation\/skill\/)/.test(p))).toEqual(
      [],
    );
  });
});
