// What the project routes answer inside the envelope's `data` (projects.presenters.ts), as the OpenAPI document
// shows it.
import { z } from 'zod';
import { projectRole, projectStatus, videoStatuses } from '../../../shared/db/schema/index.js';
import { REFUSAL_DAYS_KEPT, refusalReasons } from '../../../shared/gateway/refusal-counts.js';
import { optionalLimit as limit, timestamp } from '../../openapi/response-parts.js';
import { apiKey, createdApiKey } from '../api-keys/api-keys.responses.js';

export const project = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().optional(),
    organizationId: z.uuid(),
    status: z.enum(projectStatus.enumValues),
    templateId: z.uuid().optional().meta({ description: 'The template the project was made from.' }),
    createdAt: timestamp,
  })
  .meta({ id: 'Project' });

export const projectDeleted = z.object({ message: z.string(), id: z.uuid() });

/** A key bound to the project, as its managers see it: with its holder, never its token. */
export const projectApiKey = apiKey
  .omit({ projectId: true })
  .extend({
    owner: z
      .object({ id: z.uuid(), name: z.string(), email: z.string() })
      .meta({ description: 'The account that made the key and whose key it is.' }),
  })
  .meta({ id: 'ProjectApiKey' });

export const projectApiKeyRevoked = z.object({ message: z.string(), id: z.uuid() });

export const projectMember = z
  .object({
    userId: z.uuid(),
    email: z.string(),
    name: z.string(),
    role: z.enum(projectRole.enumValues),
    addedAt: timestamp,
  })
  .meta({ id: 'ProjectMember' });

/** A project's or a template's four quota limits. */
export const quotaLimits = {
  dailyRequestLimit: limit,
  dailyTokenLimit: limit,
  monthlyRequestLimit: limit,
  monthlyTokenLimit: limit,
};

const quotaSettings = {
  projectId: z.uuid(),
  ...quotaLimits,
  enforceQuota: z.boolean(),
  customResetDay: z
    .number()
    .int()
    .min(1)
    .max(28)
    .meta({ description: 'The day of the month the monthly window resets.' }),
  createdAt: timestamp,
  updatedAt: timestamp,
};

export const projectQuota = z.object({ ...quotaSettings, requestsPerMinuteLimit: limit }).meta({ id: 'ProjectQuota' });

export const projectFromTemplate = project
  .extend({
    templateName: z.string(),
    quota: z.object(quotaSettings).meta({ description: "The project's quota, copied from the template." }),
    rateLimit: z.object({ requestsPerMinuteLimit: limit }),
    apiKeys: z
      .array(createdApiKey)
      .length(1)
      .meta({ description: "The project's API key, with its token: shown this once." }),
  })
  .meta({ id: 'ProjectFromTemplate' });

const count = z.number().int().nonnegative();
const usage = { requestCount: count, tokenCount: count };

export const quotaUsage = z
  .object({
    projectId: z.uuid(),
    period: z.enum(['day', 'month']),
    enforceQuota: z.boolean().meta({ description: 'False also when the project has no quota configured.' }),
    dailyUsage: z.object({ ...usage, date: z.iso.date().meta({ description: 'The current UTC day.' }) }),
    monthlyUsage: z
      .object({
        ...usage,
        resetDay: z.number().int().min(1).max(28),
        windowStart: z.iso.date().meta({ description: 'The first day of the current monthly window.' }),
      })
      .optional()
      .meta({ description: '`period=month` only.' }),
    quotaLimitRemaining: z
      .object({ dailyRequests: limit, dailyTokens: limit, monthlyRequests: limit, monthlyTokens: limit })
      .meta({ description: 'What each configured limit leaves; the monthly ones with `period=month` only.' }),
  })
  .meta({ id: 'ProjectQuotaUsage' });

export const projectRequest = z
  .object({
    id: z.uuid(),
    operation: z
      .string()
      .meta({ description: 'messages, count_tokens, chat_completions, responses, video, video.cancel, …' }),
    model: z.string().optional().meta({
      description:
        'The model that served the request and whose prices it was billed at (a `fallbacks` model when one answered); the model the request named when none answered.',
    }),
    status: z.string().meta({ description: 'succeeded, failed, cancelled or client_closed.' }),
    httpStatus: z.number().int().optional(),
    inputTokens: count,
    outputTokens: count,
    cacheReadTokens: count,
    cacheWriteTokens: count,
    totalTokens: count,
    cost: z.number().meta({ description: 'What the request cost, in the wallet currency.' }),
    latencyMs: count.optional(),
    errorMessage: z.string().optional(),
    apiKeyId: z.uuid().optional(),
    correlationId: z.string().optional(),
    createdAt: timestamp,
    finishedAt: timestamp.optional(),
  })
  .meta({ id: 'ProjectRequest' });

export const projectVideo = z
  .object({
    id: z.string(),
    model: z.string(),
    status: z.enum(videoStatuses),
    progress: z.number().int().min(0).max(100),
    seconds: z.number().int().positive(),
    prompt: z.string().optional(),
    price: z.number().meta({ description: 'The price of the requested seconds, in the wallet currency.' }),
    videoUrl: z.string().optional().meta({ description: 'Once completed.' }),
    error: z.object({ message: z.string(), type: z.string() }).optional().meta({ description: 'Once failed.' }),
    createdAt: timestamp,
    finishedAt: timestamp.optional(),
  })
  .meta({ id: 'ProjectVideo' });

const spent = z
  .number()
  .meta({ description: 'What the requests took from the wallet, less what was refunded of them, in its currency.' });
/** Token counts as the request logs keep them (Anthropic's usage: input leaves out the prompt cache's reads and writes). */
const usageTokens = {
  inputTokens: count.meta({ description: 'Input tokens not read from or written to the prompt cache.' }),
  outputTokens: count,
  cacheReadTokens: count.meta({ description: 'Input tokens read from the prompt cache.' }),
  cacheWriteTokens: count.meta({ description: 'Input tokens written to the prompt cache (5-minute and 1-hour).' }),
};

export const projectUsage = z
  .object({
    currency: z.string(),
    from: timestamp.meta({ description: 'The start (00:00 UTC) of the first day of the window.' }),
    to: timestamp,
    days: z
      .array(z.object({ day: z.iso.date(), requests: count, ...usageTokens, spent }))
      .meta({ description: 'Each UTC day of the window with requests, oldest first (days without are left out).' }),
    models: z
      .array(
        z.object({
          operation: z.string(),
          model: z
            .string()
            .optional()
            .meta({ description: 'The model that served the requests (a `fallbacks` model when one did).' }),
          requests: count,
          ...usageTokens,
          spent,
        }),
      )
      .meta({ description: 'The window per operation and the model that served, the most spent first.' }),
    refusals: z
      .array(
        z.object({
          day: z.iso.date(),
          reason: z.enum(refusalReasons).meta({
            description:
              'The quota limit reached (429 Project.QuotaExceeded), `balance` (402 Wallet.InsufficientBalance), `inactive` (402 Wallet.Inactive) or `backlog` (503 Ledger.Backlogged).',
          }),
          count,
        }),
      )
      .meta({
        description: `Requests refused at admission (never admitted, so not in \`days\` or the request log), per UTC day and reason, oldest first: the window's last ${REFUSAL_DAYS_KEPT} days at most, as long as they are kept.`,
      }),
  })
  .meta({ id: 'ProjectUsage' });

const usd = (what: string) =>
  z
    .number()
    .nonnegative()
    .meta({ description: `USD ${what}` });
const tokenPrices = {
  inputPerMTok: usd('per million input tokens'),
  outputPerMTok: usd('per million output tokens'),
  cacheReadPerMTok: usd('per million tokens read from the prompt cache'),
  cacheWritePerMTok: usd('per million tokens written to the 5-minute prompt cache'),
  cacheWrite1hPerMTok: usd('per million tokens written to the 1-hour prompt cache'),
};

export const pricedModel = z
  .object({
    id: z.string().meta({ description: 'The `model` a request names.' }),
    displayName: z.string(),
    capability: z.enum(['messages', 'video', 'search']),
    contextWindowTokens: count.optional(),
    maxOutputTokens: count.optional(),
    supportsThinking: z.boolean().optional(),
    resolutions: z.array(z.string()).optional(),
    prices: z
      .object({
        ...Object.fromEntries(Object.entries(tokenPrices).map(([k, v]) => [k, v.optional()])),
        webSearchPerRequest: usd('per server-side web search').optional(),
        webFetchPerRequest: usd('per server-side web fetch').optional(),
        perVideoSecond: usd('per second of video').optional(),
        perRequest: usd('per web search or web fetch request').optional(),
      })
      .meta({ description: 'Token prices for `messages` models, per second for `video`, per request for `search`.' }),
    longContext: z
      .object({ aboveInputTokens: count, prices: z.object(tokenPrices) })
      .optional()
      .meta({
        description: 'Every token of a request whose input is over `aboveInputTokens` is billed at these prices.',
      }),
    priceMultipliers: z.record(z.string(), z.record(z.string(), z.number())).optional().meta({
      description: "Token prices are multiplied by these for a request option's value, e.g. `{speed: {fast: 6}}`.",
    }),
  })
  .meta({ id: 'PricedModel' });
