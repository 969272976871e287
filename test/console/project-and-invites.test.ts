// The project page as people expect it (its own name and its organization's, its members with adding, role changes
// and removal, every key made for it with its holder and revoking one for its managers, a Member's own keys only),
// the invite by e-mail, counts written with thousands separators and the wallet's day filters as ISO text.
import { recharge } from '../../shared/wallet/ledger.js';
import { bearer, createUser, uniqueEmail } from '../support/identity.js';
import { aMember, anOrganization, aProject, inOrg } from '../support/org-fixtures.js';
import { type ConsoleWorld, checkPage, openConsoleWorld, signIn } from './console-world.js';

let w: ConsoleWorld;
beforeAll(async () => {
  w = await openConsoleWorld();
});
afterAll(async () => w?.close());

const members = async (projectId: string, session: string) =>
  (await w.h.http.get(`/api/projects/${projectId}/members`).set(bearer(session))).body.data as {
    email: string;
    role: string;
  }[];

describe('the project page', () => {
  it('shows a project under its own name and its organization’s, with its members and the keys made for it', async () => {
    const owner = await createUser(w.h, { name: 'Pat Owner' });
    const org = await anOrganization(w.h, owner, 'Blue Harbour');
    const joiner = await aMember(w.h, org);
    const project = await aProject(w.h, org, 'Lighthouse');
    for (const body of [{ name: 'Lighthouse key', projectId: project.id }, { name: 'Catalog only key' }]) {
      expect((await w.h.http.post('/api/v1/api-keys').set(bearer(owner.session)).send(body)).status).toBe(200);
    }
    const page = await w.newPage();
    await signIn(page, owner.email, owner.password, `/org/projects/${project.id}`);

    await page.getByRole('heading', { name: 'Lighthouse', level: 1 }).waitFor();
    await page.getByText('A project of Blue Harbour').waitFor();
    expect(await page.title()).toBe('Lighthouse · ockhub');

    const table = page.getByRole('table', { name: 'Project members' });
    expect(await table.getByRole('combobox', { name: `Project role of ${owner.email}` }).inputValue()).toBe('Owner');
    // The organization's members not in the project are offered; adding one says so and lists them.
    const joinerName = `Member of ${org.id.slice(0, 8)}`;
    await page.getByLabel('Member of the organization').selectOption({ label: `${joinerName} (${joiner.email})` });
    await page.getByRole('button', { name: 'Add to project' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `${joinerName} is now a Member of this project.` })
      .waitFor();
    const row = table.locator('tr', { hasText: joiner.email });
    await row.getByRole('combobox', { name: `Project role of ${joiner.email}` }).selectOption('Owner');
    await page
      .getByRole('status')
      .filter({ hasText: `${joinerName} is now an Owner of this project.` })
      .waitFor();
    expect(await members(project.id, owner.session)).toContainEqual(
      expect.objectContaining({ email: joiner.email, role: 'Owner' }),
    );

    // The keys: only the ones bound to this project, everyone's (the page's reader is its organization's Admin), with
    // their holder, prefix, creation and last use.
    const joinerKey = await w.h.http
      .post('/api/v1/api-keys')
      .set(bearer(joiner.session))
      .send({ name: 'Keeper laptop', projectId: project.id });
    expect(joinerKey.status).toBe(200);
    await page.reload();
    const keys = page.getByRole('table', { name: 'API keys of this project' });
    const keyRow = keys.locator('tbody tr');
    const ownRow = keyRow.filter({ hasText: 'Lighthouse key' });
    const joinerRow = keyRow.filter({ hasText: 'Keeper laptop' });
    await joinerRow.waitFor();
    expect(await keyRow.count()).toBe(2);
    expect(await joinerRow.getByRole('cell', { name: `${joinerName} ${joiner.email}` }).count()).toBe(1);
    expect(await ownRow.getByRole('cell', { name: `Pat Owner ${owner.email}` }).count()).toBe(1);
    expect(await joinerRow.locator('code').textContent()).toMatch(/^ock_\w+…$/);
    expect(await joinerRow.locator('td').nth(7).textContent()).toBe('never');
    await checkPage(page, 'project-members-and-keys');

    // Revoking another member's key is asked twice, says so, and the key no longer opens the gateway.
    await joinerRow.getByRole('button', { name: 'Revoke', exact: true }).click();
    await joinerRow.getByRole('button', { name: 'Revoke Keeper laptop for good' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Keeper laptop (${joiner.email}) was revoked.` })
      .waitFor();
    await joinerRow.waitFor({ state: 'detached' });
    expect((await w.h.http.get('/v1/models').set(bearer(joinerKey.body.token))).status).toBe(401);

    await row.getByRole('button', { name: 'Remove', exact: true }).click();
    await row.getByRole('button', { name: `Remove ${joinerName} from the project` }).click();
    await row.waitFor({ state: 'detached' });
    expect((await members(project.id, owner.session)).map((m) => m.email)).toEqual([owner.email]);

    await ownRow.getByRole('button', { name: 'Revoke', exact: true }).click();
    await ownRow.getByRole('button', { name: 'Revoke Lighthouse key for good' }).click();
    await page.getByText('Nobody has made a key for this project yet.').waitFor();
    const left = await w.h.http.get('/api/v1/api-keys').set(bearer(owner.session));
    expect(left.body.map((k: { name: string }) => k.name).sort()).toEqual(['Catalog only key', 'test key']);
  });

  it('shows a Member of the organization the project’s members without the means to change them, and only their own keys', async () => {
    const owner = await createUser(w.h, { name: 'Sam Owner' });
    const org = await anOrganization(w.h, owner, 'Green Field');
    const member = await aMember(w.h, org);
    const project = await aProject(w.h, org, 'Seedbed');
    const added = await w.h.http
      .post(`/api/projects/${project.id}/members`)
      .set(inOrg(owner, org.id))
      .send({ userId: member.accountId, role: 'Member' });
    expect(added.status).toBe(201);
    for (const [user, name] of [
      [owner, 'Owner key'],
      [member, 'Member key'],
    ] as const) {
      const made = await w.h.http
        .post('/api/v1/api-keys')
        .set(bearer(user.session))
        .send({ name, projectId: project.id });
      expect(made.status).toBe(200);
    }
    const page = await w.newPage();
    await signIn(page, member.email, member.password, `/org/projects/${project.id}`);
    await page.getByRole('heading', { name: 'Seedbed', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Project members' });
    await table.locator('tr', { hasText: owner.email }).getByRole('cell', { name: 'Owner', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Add to project' }).count()).toBe(0);
    expect(await table.getByRole('combobox').count()).toBe(0);
    const keys = page.getByRole('table', { name: 'Your API keys for this project' });
    await keys.locator('tbody tr', { hasText: 'Member key' }).waitFor();
    expect(await keys.locator('tbody tr').count()).toBe(1);
    expect(await page.getByText('Owner key').count()).toBe(0);
    expect(await page.getByRole('table', { name: 'API keys of this project' }).count()).toBe(0);
    await checkPage(page, 'project-member');
  });
});

describe('inviting by e-mail', () => {
  it('shows the API’s error for a bad address, then makes an invite only that address can accept', async () => {
    const owner = await createUser(w.h, { name: 'Ines Inviter' });
    const org = await anOrganization(w.h, owner, 'Red Roof');
    const page = await w.newPage();
    await signIn(page, owner.email, owner.password, '/org/members');
    const form = page.getByRole('form', { name: 'Invite by e-mail' });
    await form.getByLabel('E-mail address').fill('not-an-address');
    await form.getByRole('button', { name: 'Invite' }).click();
    const error = page.getByRole('alert').filter({ hasText: 'Invite.Invalid' });
    await error.waitFor();
    expect(await error.textContent()).toContain('email');

    const email = uniqueEmail('invitee');
    await form.getByLabel('E-mail address').fill(email);
    await form.getByLabel('Role').selectOption('Admin');
    await form.getByRole('button', { name: 'Invite' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Invite for ${email} made, as an Admin.` })
      .waitFor();
    expect(await error.count()).toBe(0);
    const link =
      (await page
        .getByRole('region', { name: `Invite link for ${email}` })
        .getByTestId('shown-once')
        .textContent()) ?? '';
    expect(link).toMatch(new RegExp(`^${w.baseUrl}/join/oki_\\w+$`));
    await page
      .getByRole('table', { name: 'Invite tokens' })
      .locator('tr', { hasText: email })
      .getByText('Admin')
      .waitFor();
    await checkPage(page, 'members-email-invite');

    // The invitee's join page holds their address, fixed; the API refuses any other.
    const visitor = await w.newPage();
    await visitor.goto(link.replace(w.baseUrl, ''));
    const address = visitor.getByLabel('E-mail');
    await address.waitFor();
    expect(await address.inputValue()).toBe(email);
    expect(await address.getAttribute('readonly')).not.toBeNull();
    const listed = await w.h.http.get('/api/organization/invite-tokens').set(inOrg(owner, org.id));
    expect(listed.body.data).toContainEqual(expect.objectContaining({ email, role: 'Admin', maxUsageCount: 1 }));
  });
});

describe('counts and days as the rest of the console writes them', () => {
  it('pages a wallet of 1,001 records as "Page 1 of 51 (1,001 in all)" and filters by ISO days', async () => {
    const org = await anOrganization(w.h, undefined, 'Thousand records');
    for (let i = 0; i < 1001; i++) {
      await recharge(w.h.ctx, org.id, { amount: 1_000_000n, description: `Top-up ${i + 1}` });
    }
    const page = await w.newPage();
    await signIn(page, org.admin.email, org.admin.password, '/org/wallet');
    await page.getByText('Page 1 of 51 (1,001 in all)').waitFor();

    const from = page.getByLabel('From (UTC day)');
    expect(await from.getAttribute('placeholder')).toBe('YYYY-MM-DD');
    // An impossible day is not sent: the list stays, and the field says what it needs.
    await from.fill('2026-02-30');
    await page.getByText('A day as YYYY-MM-DD').waitFor();
    expect(await from.getAttribute('aria-invalid')).toBe('true');
    const today = new Date().toISOString().slice(0, 10);
    await from.fill(today);
    await page.getByText('A day as YYYY-MM-DD').waitFor({ state: 'detached' });
    await page.getByText('Page 1 of 51 (1,001 in all)').waitFor();
    await from.fill(new Date(Date.now() + 86_400_000).toISOString().slice(0, 10));
    await page.getByText('No records match these filters.').waitFor();
    await from.fill('');
    await page.getByText('Page 1 of 51 (1,001 in all)').waitFor();
    await checkPage(page, 'wallet-thousands');
  });
});
