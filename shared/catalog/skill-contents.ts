// Writes the parsed contents of a skill version (bundle files, dependencies, examples, parameters, executesCode),
// validated by the stored skill payload schema: the skill-bundle worker's write, and the demo seed's.
import { eq } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import { catalogVersions } from '../db/schema/index.js';
import { type SkillPayload, skillPayload } from './version-payloads.js';

export async function recordSkillContents(db: DbExecutor, versionId: string, contents: Partial<SkillPayload>) {
  const payload = skillPayload.parse(contents);
  await db.update(catalogVersions).set({ payload, updatedAt: new Date() }).where(eq(catalogVersions.id, versionId));
}
