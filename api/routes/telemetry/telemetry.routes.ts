// POST /api/v1/telemetry: anonymous usage events, one or a batch of up to 100, each taken in one Redis step
// (deduplicated and counted there; the telemetry flush writes the counters to PostgreSQL).
import type { AppContext } from '../../../shared/context.js';
import { AppError } from '../../../shared/errors/app-error.js';
import { parseOrThrow, validationError } from '../../../shared/errors/validation.js';
import { retryAfterSeconds } from '../../../shared/rate-limit/sliding-window.js';
import { acceptTelemetry, acceptTelemetryBatch } from '../../../shared/telemetry/telemetry-ingest.js';
import { clientAddress } from '../../http/client-address.js';
import { body } from '../../http/validate.js';
import type { Area } from '../route.js';
import { telemetryRecorded } from './telemetry.responses.js';
import { telemetryBatchBody, telemetryBody, telemetryRequestBody } from './telemetry.schemas.js';

const isBatch = (b: unknown) => typeof b === 'object' && b !== null && 'events' in b;

/** One event: validated and taken in one Redis step. Served by the lean lane too (api/http/lean-lane.ts). */
const singleEvent = (ctx: AppContext) => async (value: unknown, address: () => string) => {
  const input = parseOrThrow(telemetryBody, value, 'Telemetry.Invalid');
  await acceptTelemetry(ctx, input, { ip: address() });
  return { recorded: true };
};

export const telemetryArea: Area = {
  tag: 'Catalog',
  routes: [
    {
      method: 'post',
      path: '/',
      summary:
        'Record an anonymous usage event, or a batch `{events:[…]}` of up to 100 (answered `{recorded, results:[{recorded} | {recorded:false, error:{status, code, message}}]}`, one result per event in order)',
      access: 'public',
      hotPath: true,
      lean: (ctx) => {
        const single = singleEvent(ctx);
        // The batch form is left to the handler below.
        return async (value, caller) => (isBatch(value) ? undefined : single(value, caller.address));
      },
      body: telemetryRequestBody,
      response: telemetryRecorded,
      notFound:
        '<Type>.NotFound (Mcp.NotFound, Skill.NotFound, …): no published item of that type has the slug (a batch ' +
        "answers 200 and says so in the event's result).",
      rateLimited:
        'Telemetry.RateLimited: more than TELEMETRY_RATE_LIMIT_PER_MINUTE events from this address (a batch partly ' +
        'over it answers 200 with Retry-After, and each event over it has a 429 result: send those again after it). ' +
        'Catalog.TooManyReads: more slugs this process had not looked up lately than ' +
        "PUBLIC_READ_MISSES_PER_ADDRESS_PER_MINUTE allows the address (one event; in a batch, that event's result).",
      handler: (ctx) => {
        const single = singleEvent(ctx);
        return async (req, res) => {
          if (!isBatch(req.body)) {
            res.json(await single(req.body ?? {}, () => clientAddress(req)));
            return;
          }
          const { events } = body(req, telemetryBatchBody, 'Telemetry.Invalid');
          const inputs = events.map((event) => {
            const parsed = telemetryBody.safeParse(event);
            return parsed.success ? parsed.data : validationError(parsed.error, 'Telemetry.Invalid');
          });
          const { results, retryAfterMs } = await acceptTelemetryBatch(ctx, inputs, { ip: clientAddress(req) });
          const recorded = results.filter((r) => r.recorded).length;
          if (recorded === 0 && results.every((r) => !r.recorded && r.error.status === 429)) {
            throw new AppError('Telemetry.RateLimited', 429, 'Too many telemetry events from this address.', {
              headers: { 'retry-after': retryAfterSeconds(retryAfterMs) },
            });
          }
          if (retryAfterMs > 0) res.setHeader('retry-after', retryAfterSeconds(retryAfterMs));
          res.json({ recorded, results });
        };
      },
    },
  ],
};
