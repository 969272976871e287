// How an error is logged: pino's own serializer, minus the values a failed query was run with. drizzle's
// DrizzleQueryError says `Failed query: <sql>\nparams: <values>` in its message and stack and keeps the values in
// `params`: a failing UPDATE of alert settings wrote an Admin's webhook Authorization header and the whsec_ signing
// secret to the log (found by a security review). The SQL text stays; the values never reach a log line.
import { pino } from 'pino';

const PARAMS = /\nparams: [\s\S]*?(?=\n {4}at |$)/g;

const withoutParams = (text: unknown) =>
  typeof text === 'string' ? text.replace(PARAMS, '\nparams: [redacted]') : text;

type Serialized = Record<string, unknown> & { message?: unknown; stack?: unknown; cause?: unknown };

function scrub(serialized: Serialized): Serialized {
  const { params: _values, ...rest } = serialized;
  return {
    ...rest,
    ...('message' in rest ? { message: withoutParams(rest.message) } : {}),
    ...('stack' in rest ? { stack: withoutParams(rest.stack) } : {}),
    ...(rest.cause && typeof rest.cause === 'object' ? { cause: scrub(rest.cause as Serialized) } : {}),
  };
}

export function serializeError(err: unknown): unknown {
  if (typeof err === 'string') return withoutParams(err);
  if (!(err instanceof Error)) return err;
  return scrub(pino.stdSerializers.err(err) as unknown as Serialized);
}
