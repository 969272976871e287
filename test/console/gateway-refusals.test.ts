// A new user's trial (2026-11-28): a project whose requests were refused (429 over its quota, 402 for money) showed
// nothing in the console, and "Connect a client" said to make a key even when the project had one. The Gateway page's
// Usage panel now counts the refusals by reason, and the Connect panel says how many keys the project has.

import { recharge } from '../support/gateway.js';
import { TEST_PASSWORD } from '../support/identity.js';
import { aMember, anOrganization, aProject, inOrg } from '../support/org-fixtures.js';
import { type ConsoleWorld, checkPage, openConsoleWorld, signIn } from './console-world.js';

let w: ConsoleWorld;
beforeAll(async () => {
  w = await openConsoleWorld();
});
afterAll(async () => w?.close());

it('counts refused requests by reason in the Usage panel, and names how many keys the project has', async () => {
  const org = await anOrganization(w.h, undefined, 'Refused Co');
  const project = await aProject(w.h, org, 'Limited');
  const made = await w.h.http
    .post('/api/v1/api-keys')
    .set(inOrg(org.admin, org.id))
    .send({ name: 'limited key', projectId: project.id });
  expect(made.status).toBe(200);
  const quota = await w.h.http
    .post(`/api/projects/${project.id}/quota`)
    .set(inOrg(org.admin, org.id))
    .send({ dailyRequestLimit: 1, enforceQuota: true });
  expect(quota.status).toBeLessThan(300);
  const ask = () =>
    fetch(`${w.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': made.body.token, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
  // No money yet: refused for the balance (the wallet is checked first, so the quota counts nothing).
  expect((await ask()).status).toBe(402);
  await recharge(w.h, org, '5');
  expect((await ask()).status).toBe(200);
  expect((await Promise.all([ask(), ask()])).map((r) => r.status)).toEqual([429, 429]);

  const page = await w.newPage();
  await signIn(page, org.admin.email, TEST_PASSWORD, `/gateway/${project.id}`);
  const usage = page.getByRole('region', { name: 'Usage' });
  const refused = usage.getByTestId('usage-refused');
  await refused.waitFor();
  expect(await refused.textContent()).toMatch(/^Refused: 2 over quota \(daily requests\), 1 insufficient balance \(/);

  const connect = page.getByRole('region', { name: 'Connect a client' });
  await connect.getByTestId('project-key-count').waitFor();
  expect(await connect.getByTestId('project-key-count').textContent()).toBe('it has 1 API key');
  expect(await connect.getByRole('link', { name: 'see them' }).getAttribute('href')).toBe(
    `/org/projects/${project.id}`,
  );
  await checkPage(page, 'gateway-refusals');

  // A plain Member with no key of the project is told so, and where to make one for it.
  const member = await aMember(w.h, org);
  const memberPage = await w.newPage();
  await signIn(memberPage, member.email, TEST_PASSWORD, `/gateway/${project.id}`);
  const memberConnect = memberPage.getByRole('region', { name: 'Connect a client' });
  await memberConnect.getByText('you have none for it yet').waitFor();
  expect(await memberConnect.getByRole('link', { name: 'Account › API keys' }).getAttribute('href')).toBe(
    `/account/keys?project=${project.id}`,
  );
  // A project without refusals shows no such line.
  const quiet = await aProject(w.h, org, 'Quiet');
  await page.goto(`/gateway/${quiet.id}`);
  await page.getByRole('region', { name: 'Usage' }).getByTestId('usage-total').waitFor();
  expect(await page.getByTestId('usage-refused').count()).toBe(0);
});
