// Rotating SECRET_KEY (docs/operations.md, "Rotating SECRET_KEY"): credentials made under key A keep working once the
// processes restart with SECRET_KEY=B and SECRET_KEY_PREVIOUS=A, and move to B's hash on their first use; with B alone
// they are refused, as before. Every app context shares one database and one Redis prefix, as restarted processes do.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { systemActor } from '../../shared/audit/audit-log.js';
import { apiKeys, consoleSessions, inviteTokens, walletTopUpCodes } from '../../shared/db/schema/index.js';
import { removeApiKey, setApiKeyStatus } from '../../shared/identity/api-keys.js';
import { CredentialCache } from '../../shared/identity/credential-cache.js';
import { findRehashing } from '../../shared/identity/secret-rotation.js';
import { generateToken, keyedHash } from '../../shared/identity/tokens.js';
import { inviteTokenHashUnder } from '../../shared/organizations/invite-tokens.js';
import { canonicalTopUpCode, topUpCodeHashUnder } from '../../shared/wallet/top-up-codes.js';
import { redeemTopUpCode } from '../../shared/wallet/top-up-redemption.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, platformAdminOf, type TestUser } from '../support/identity.js';
import { anInviteToken, anOrganization, inOrg, type TestOrg } from '../support/org-fixtures.js';

const KEY_A = `key-a-${randomBytes(12).toString('hex')}`;
const KEY_B = `key-b-${randomBytes(12).toString('hex')}`;
const prefix = `trot${randomBytes(4).toString('hex')}`;

const open: Harness[] = [];
/** The app restarted with these keys, on the same database and Redis prefix. */
async function startWith(keys: { SECRET_KEY: string; SECRET_KEY_PREVIOUS?: string }): Promise<Harness> {
  const h = await createHarness({ REDIS_PREFIX: prefix, ...keys });
  open.push(h);
  return h;
}
afterAll(async () => {
  for (const h of open.slice(0, -1)) await h.ctx.close();
  await open.at(-1)?.close();
});

const me = (h: Harness, token: string) => h.http.get('/api/v1/auth/me').set(bearer(token));
const redeem = (h: Harness, org: TestOrg, code: string) =>
  h.http.post('/api/organization/wallet/redeem').set(inOrg(org.admin, org.id)).send({ code });

type UnderA = { user: TestUser; org: TestOrg; invite: string; code: string };

/** An account (its API key and session), an organization, an invite link and a top-up code, all made under key A. */
async function credentialsUnderA(a: Harness): Promise<UnderA> {
  const user = await createUser(a);
  const org = await anOrganization(a, user);
  const invite = (await anInviteToken(a, org)).token;
  const issued = await a.http
    .post('/api/v1/admin/top-up-codes')
    .set(bearer((await platformAdminOf(a)).session))
    .send({ amount: 5 });
  expect(issued.status).toBe(201);
  return { user, org, invite, code: issued.body.codes[0].code };
}

async function storedHashes(h: Harness, made: UnderA) {
  const [key] = await h.ctx.db.select().from(apiKeys).where(eq(apiKeys.accountId, made.user.accountId));
  const [session] = await h.ctx.db
    .select()
    .from(consoleSessions)
    .where(eq(consoleSessions.accountId, made.user.accountId));
  const [invite] = await h.ctx.db.select().from(inviteTokens).where(eq(inviteTokens.organizationId, made.org.id));
  const canonical = canonicalTopUpCode(made.code) as string;
  const codes = await h.ctx.db.select().from(walletTopUpCodes);
  const code = codes.find((c) => [KEY_A, KEY_B].some((k) => c.codeHash === topUpCodeHashUnder(k, canonical)));
  return { key: key?.tokenHash, session: session?.tokenHash, invite: invite?.tokenHash, code: code?.codeHash };
}

const hashesUnder = (secret: string, made: UnderA) => ({
  key: keyedHash(secret, made.user.apiKey),
  session: keyedHash(secret, made.user.session),
  invite: inviteTokenHashUnder(secret, made.invite),
  code: topUpCodeHashUnder(secret, canonicalTopUpCode(made.code) as string),
});

let made: UnderA;
let rotated: Harness;

beforeAll(async () => {
  const a = await startWith({ SECRET_KEY: KEY_A });
  made = await credentialsUnderA(a);
  expect((await me(a, made.user.apiKey)).status).toBe(200);
});

describe('SECRET_KEY changed without SECRET_KEY_PREVIOUS', () => {
  it('refuses every credential made under the old key (a mass revocation), and caches the tokens as unknown', async () => {
    const b = await startWith({ SECRET_KEY: KEY_B });
    expect((await me(b, made.user.apiKey)).status).toBe(401);
    expect((await me(b, made.user.session)).status).toBe(401);
    expect((await b.http.get(`/api/organization/invites/${made.invite}`)).status).toBe(404);
    expect((await redeem(b, made.org, made.code)).status).toBe(401); // the org Admin's session is gone too
    await expect(
      redeemTopUpCode(b.ctx, { organizationId: made.org.id, accountId: made.user.accountId, code: made.code }),
    ).rejects.toMatchObject({ code: 'TopUpCode.NotFound', status: 404 });
    // Unknown under B alone: the entry a rotating process must not take as the last word.
    const cached = await b.ctx.redis.hget(`${prefix}:cred:${keyedHash(KEY_B, made.user.apiKey)}`, 'missing');
    expect(cached).toBe('1');
    expect(await storedHashes(b, made)).toEqual(hashesUnder(KEY_A, made));
  });
});

describe('SECRET_KEY=B with SECRET_KEY_PREVIOUS=A', () => {
  beforeAll(async () => {
    rotated = await startWith({ SECRET_KEY: KEY_B, SECRET_KEY_PREVIOUS: KEY_A });
  });

  it("serves the API key, session, invite and top-up code made under A, and stores each under B's hash", async () => {
    // The API key and session were cached as unknown under B's hash a moment ago, by the process without the setting.
    const byKey = await me(rotated, made.user.apiKey);
    expect(byKey.status).toBe(200);
    expect(byKey.body.id).toBe(made.user.accountId);
    expect((await me(rotated, made.user.session)).status).toBe(200);

    const preview = await rotated.http.get(`/api/organization/invites/${made.invite}`);
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ organizationId: made.org.id });
    const joiner = await createUser(rotated);
    const accepted = await rotated.http
      .post(`/api/organization/invites/${made.invite}/accept`)
      .set(bearer(joiner.session))
      .send({});
    expect(accepted.status).toBe(201);

    const redeemed = await redeem(rotated, made.org, made.code);
    expect(redeemed.status).toBe(201);
    expect(redeemed.body.data).toMatchObject({ type: 'Recharge', amount: 5 });

    expect(await storedHashes(rotated, made)).toEqual(hashesUnder(KEY_B, made));
    // A process still on key A had both cached under A's hash; the move dropped those entries, so it refuses them now
    // rather than serving a copy that a later disable or revocation would invalidate only under B's hash.
    const stillOnA = open[0] as Harness;
    expect((await me(stillOnA, made.user.apiKey)).status).toBe(401);
    expect((await me(stillOnA, made.user.session)).status).toBe(401);
    // The cache now holds the key under B's hash: the next use is served from it, as any key's.
    const entry = await rotated.ctx.redis.hgetall(`${prefix}:cred:${keyedHash(KEY_B, made.user.apiKey)}`);
    expect(entry).toMatchObject({ accountId: made.user.accountId, kind: 'api-key' });
    expect(entry.missing).toBeUndefined();
    // A replayed redemption answers from the moved code.
    const again = await redeem(rotated, made.org, made.code);
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(redeemed.body.data.id);
  });

  it('serves concurrent first uses of one API key and one session, leaving one row of each under B', async () => {
    const a = open[0] as Harness;
    const user = await createUser(a);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => me(rotated, i % 2 ? user.apiKey : user.session)),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(12).fill(200));
    const keys = await rotated.ctx.db.select().from(apiKeys).where(eq(apiKeys.accountId, user.accountId));
    const sessions = await rotated.ctx.db
      .select()
      .from(consoleSessions)
      .where(eq(consoleSessions.accountId, user.accountId));
    expect(keys.map((k) => k.tokenHash)).toEqual([keyedHash(KEY_B, user.apiKey)]);
    expect(sessions.map((s) => s.tokenHash)).toEqual([keyedHash(KEY_B, user.session)]);
  });

  it('serves concurrent first redemptions of one top-up code once, and concurrent invite previews alike', async () => {
    const a = open[0] as Harness;
    const under = await credentialsUnderA(a);
    const redemptions = await Promise.all(Array.from({ length: 6 }, () => redeem(rotated, under.org, under.code)));
    expect(redemptions.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    const previews = await Promise.all(
      Array.from({ length: 6 }, () => rotated.http.get(`/api/organization/invites/${under.invite}`)),
    );
    expect(previews.map((r) => r.status)).toEqual(Array(6).fill(200));
    const hashes = await storedHashes(rotated, under);
    expect({ invite: hashes.invite, code: hashes.code }).toEqual({
      invite: hashesUnder(KEY_B, under).invite,
      code: hashesUnder(KEY_B, under).code,
    });
  });

  it('answers 401 to an unknown token, cached as unknown under both keys', async () => {
    const token = generateToken('api-key');
    expect((await me(rotated, token)).status).toBe(401);
    const cached = await rotated.ctx.redis.hget(`${prefix}:cred:${keyedHash(KEY_B, token)}`, 'missing');
    expect(cached).toBe('previous');
    // Served from that entry: a second miss would look the token up again.
    const admitted = await new CredentialCache(rotated.ctx.redis, prefix).admit(
      keyedHash(KEY_B, token),
      '2026-01-01',
      false,
      Date.now(),
    );
    expect(admitted).toEqual({ outcome: 'unknown', previousChecked: true });
    expect((await me(rotated, token)).status).toBe(401);
  });
});

/** `db` whose first `update(table)` runs `before` just ahead of the statement (a race made to happen in one order). */
function beforeFirstUpdateOf(db: Harness['ctx']['db'], table: unknown, before: () => Promise<unknown>) {
  let fired = false;
  const delayed = <T extends object>(builder: T): T =>
    new Proxy(builder, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof value !== 'function') return value;
        if (property === 'then') {
          return (done: (v: unknown) => unknown, failed: (e: unknown) => unknown) =>
            before().then(() => (value as PromiseLike<unknown>['then']).call(target, done, failed), failed);
        }
        return (...args: unknown[]) => {
          const next = value.apply(target, args);
          return next && typeof next === 'object' ? delayed(next) : next;
        };
      },
    });
  return new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property === 'update') {
        return (t: Parameters<typeof target.update>[0]) => {
          const builder = target.update(t);
          if (fired || t !== table) return builder;
          fired = true;
          return delayed(builder);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('an API key disabled or deleted while a rotating process moves it to the new hash', () => {
  // The change read the key's row (its hash under A) before the first use moved it and cached it under B's hash: the
  // cache entry to drop is the one under the hash the row has when the change is written, not when it was read.
  it('refuses a key disabled by a request that read it before the move', async () => {
    const a = open[0] as Harness;
    const user = await createUser(a);
    const [key] = await a.ctx.db.select().from(apiKeys).where(eq(apiKeys.accountId, user.accountId));
    const racing = {
      ...rotated.ctx,
      db: beforeFirstUpdateOf(rotated.ctx.db, apiKeys, async () => {
        expect((await me(rotated, user.apiKey)).status).toBe(200); // moved, and cached under B's hash
      }),
    };
    await setApiKeyStatus(racing, user.accountId, key?.id as string, 'disabled');
    const [moved] = await rotated.ctx.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.id, key?.id as string));
    expect(moved).toMatchObject({ status: 'disabled', tokenHash: keyedHash(KEY_B, user.apiKey) });
    expect((await me(rotated, user.apiKey)).status).toBe(401);
  });

  it('refuses a key deleted by a request that read it before the move', async () => {
    const a = open[0] as Harness;
    const user = await createUser(a);
    const [key] = await a.ctx.db.select().from(apiKeys).where(eq(apiKeys.accountId, user.accountId));
    expect((await me(rotated, user.apiKey)).status).toBe(200); // moved, and cached under B's hash
    await removeApiKey(rotated.ctx, key as typeof apiKeys.$inferSelect, systemActor());
    expect((await me(rotated, user.apiKey)).status).toBe(401);
  });
});

describe('findRehashing without SECRET_KEY_PREVIOUS', () => {
  it('looks once, under SECRET_KEY, computing no second hash and moving nothing', async () => {
    const calls: string[] = [];
    const found = await findRehashing(
      { SECRET_KEY: KEY_B },
      (secret) => {
        calls.push(`hash ${secret}`);
        return 'h';
      },
      async () => {
        calls.push('find');
        return undefined;
      },
      async () => calls.push('rehash'),
    );
    expect(found).toBeUndefined();
    expect(calls).toEqual(['find']);
  });
});
