// The platform Admin's list of every account (search by e-mail or name), newest first, paged.
import { desc, ilike, or } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { containsPattern } from '../db/like-pattern.js';
import { readPage } from '../db/page.js';
import { accounts } from '../db/schema/index.js';
import type { Account } from '../identity/accounts.js';

export type DirectoryQuery = { search?: string | undefined; page: number; pageSize: number };

export async function listAccounts(db: Database, query: DirectoryQuery) {
  const pattern = query.search ? containsPattern(query.search) : undefined;
  const where = pattern ? or(ilike(accounts.email, pattern), ilike(accounts.name, pattern)) : undefined;
  const newestFirst = db.select().from(accounts).where(where).orderBy(desc(accounts.createdAt), desc(accounts.id));
  return readPage<Account>(db, newestFirst, accounts, where, query);
}
