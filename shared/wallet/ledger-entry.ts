// A settled gateway request as it waits in its organization's Redis stream: the request log row and, through the
// amount the settlement charged (kept beside it in the stream), the Consume record it implies.

export type LedgerEntry = {
  id: string;
  organizationId: string;
  projectId: string;
  apiKeyId: string | null;
  operation: string;
  model: string | null;
  status: string;
  httpStatus: number | null;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** The actual cost (micro-units, decimal string); the charge may be less when the wallet could not cover it. */
  cost: string;
  latencyMs: number;
  errorMessage: string | null;
  correlationId: string | null;
  /** Epoch ms. */
  startedAt: number;
  finishedAt: number;
};

/**
 * The most of an error message a request log keeps. The message can be an upstream's (a refusal's, or a stream's
 * error event, which nothing else bounds): 8 MB of it was stored whole in the Redis stream, the request log row and
 * every page of `GET /api/projects/{id}/requests` that shows it.
 */
export const MAX_LOGGED_ERROR_CHARS = 1000;

const cut = (v: unknown) =>
  typeof v === 'string' && v.length > MAX_LOGGED_ERROR_CHARS ? `${v.slice(0, MAX_LOGGED_ERROR_CHARS - 1)}…` : v;

/** The entry as the stream keeps it; copied only when its error message is cut (every settlement encodes one). */
export const encodeEntry = (entry: LedgerEntry) =>
  JSON.stringify(
    (entry.errorMessage?.length ?? 0) > MAX_LOGGED_ERROR_CHARS
      ? { ...entry, errorMessage: cut(entry.errorMessage) }
      : entry,
  );

/** An unpaired UTF-16 surrogate, or a NUL: JSON carries both, PostgreSQL's text stores neither. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL is exactly what is replaced
const unstorable = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/g;

/**
 * Text as PostgreSQL can store it (U+FFFD in place of what it cannot). An entry's text can come from an upstream (a
 * refusal's message): one lone surrogate failed its batch, and every later batch of the organization began with it.
 */
const text = (v: unknown) => (typeof v === 'string' ? v.replace(unstorable, '\uFFFD') : null);
/** Any text as PostgreSQL can store it. */
export const storableText = (v: string) => v.replace(unstorable, '\uFFFD');
const whole = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : 0);

/** A stream entry that is not a settlement's (the ledger writer sets it aside: ledger-writer.ts). */
export class UnreadableEntry extends Error {}

function parsed(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through to the refusal below
  }
  throw new UnreadableEntry(`not a ledger entry: ${json.slice(0, 200)}`);
}

/** Reads an entry; throws UnreadableEntry on one that is not ours (a stream is only written by the settlement step). */
export function decodeEntry(json: string): LedgerEntry {
  const e = parsed(json);
  if (typeof e.id !== 'string' || typeof e.organizationId !== 'string' || typeof e.projectId !== 'string') {
    throw new UnreadableEntry(`not a ledger entry: ${json.slice(0, 200)}`);
  }
  if (typeof e.cost !== 'string' || !/^\d+$/.test(e.cost))
    throw new UnreadableEntry(`ledger entry ${e.id} has no cost`);
  return {
    id: e.id,
    organizationId: e.organizationId,
    projectId: e.projectId,
    apiKeyId: text(e.apiKeyId),
    operation: text(e.operation) ?? 'unknown',
    model: text(e.model),
    status: text(e.status) ?? 'unknown',
    httpStatus: typeof e.httpStatus === 'number' ? e.httpStatus : null,
    inputTokens: whole(e.inputTokens),
    outputTokens: whole(e.outputTokens),
    cacheReadTokens: whole(e.cacheReadTokens),
    cacheWriteTokens: whole(e.cacheWriteTokens),
    cost: e.cost,
    latencyMs: whole(e.latencyMs),
    errorMessage: text(cut(e.errorMessage)),
    correlationId: text(e.correlationId),
    startedAt: whole(e.startedAt),
    finishedAt: whole(e.finishedAt),
  };
}

/** The Consume record's description: the operation and the model, as before the ledger moved behind. */
export const consumeDescription = (e: Pick<LedgerEntry, 'operation' | 'model'>) =>
  `${e.operation}${e.model ? ` ${e.model}` : ''}`;
