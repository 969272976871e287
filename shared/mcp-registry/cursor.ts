// The opaque cursor of the server list: the sort key (publication time to the microsecond, version id) of the last
// entry of a page, as base64url so clients can pass it in a URL without encoding it.
import { badRequest } from '../errors/app-error.js';

export type RegistryCursor = { publishedAt: string; versionId: string };

const timestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const encodeCursor = (c: RegistryCursor) =>
  Buffer.from(JSON.stringify([c.publishedAt, c.versionId])).toString('base64url');

/** A timestamp of the cursor's form that names a real instant (2024-02-30 matches the pattern, not the calendar). */
const isRealInstant = (text: string) => {
  const ms = Date.parse(text);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 19) === text.slice(0, 19);
};

export function decodeCursor(text: string): RegistryCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== 'string' ||
    typeof parsed[1] !== 'string' ||
    !timestamp.test(parsed[0]) ||
    !isRealInstant(parsed[0]) ||
    !uuid.test(parsed[1])
  ) {
    throw badRequest(
      'McpRegistry.InvalidCursor',
      'Invalid cursor: pass metadata.nextCursor of an earlier answer as is.',
    );
  }
  return { publishedAt: parsed[0], versionId: parsed[1] };
}
