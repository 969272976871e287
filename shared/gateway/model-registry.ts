// The model registry: which models the gateway serves, their capability, upstream id and prices.
// Loaded once from MODEL_REGISTRY (default: config/models.json) and validated.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { badRequest } from '../errors/app-error.js';

export const capabilities = ['messages', 'video', 'search'] as const;
export type Capability = (typeof capabilities)[number];

const price = z.number().min(0).max(1_000_000);

/** A model's output limit when the registry names none, and what a translated request that names no limit falls back
 * on when the wallet cannot hold the model's whole output (shared/gateway/messages-gateway.ts). */
export const DEFAULT_MAX_TOKENS = 4096;

/** A premium's multiplier of the token prices (at most 6 decimals meaningful): from 1 (no premium) to 100. A value
 * below 1 is refused, since these options only ever raise the vendor's price (a 0.6 meant for 6 would sell fast mode at
 * a tenth of its cost). */
const multiplier = z.number().min(1, { error: 'a price multiplier is at least 1' }).max(100);
const optionValues = z.record(z.string().regex(/^[A-Za-z0-9._-]{1,64}$/), multiplier);

const tokenPriceNames = [
  'inputPerMTok',
  'outputPerMTok',
  'cacheReadPerMTok',
  'cacheWritePerMTok',
  'cacheWrite1hPerMTok',
] as const;

/** The five token prices of a model, each named: what a token of each kind is billed at (USD per 1M tokens). */
export type TokenPrices = Record<(typeof tokenPriceNames)[number], number>;

/**
 * A vendor's long-context tier: a (sub-)inference whose input (input + cache read + cache write tokens) is over
 * `aboveInputTokens` has every one of its tokens billed at these prices (Anthropic's rule for its 1M-token beta).
 * Every token price is named (none falls back on another, so none is billed at the standard price by omission);
 * the per-request prices of web search and fetch do not change.
 */
const longContextSchema = z.strictObject({
  aboveInputTokens: z.number().int().min(1),
  prices: z.strictObject({
    inputPerMTok: price,
    outputPerMTok: price,
    cacheReadPerMTok: price,
    cacheWritePerMTok: price,
    cacheWrite1hPerMTok: price,
  }),
});

const modelSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/),
  displayName: z.string().min(1),
  capability: z.enum(capabilities),
  upstreamModel: z.string().min(1),
  createdAt: z.iso.datetime(),
  supportsThinking: z.boolean().default(false),
  /** How a thinking request translated from another dialect asks for thinking: `adaptive` (with an effort) on
   * current models, `budget` (`enabled` with `budget_tokens`) on older ones. */
  thinkingMode: z.enum(['adaptive', 'budget']).default('adaptive'),
  /** The most input tokens one sampling pass can read: what the reservation falls back on for content it cannot
   * measure (files, URLs, server-held state). */
  contextWindowTokens: z.number().int().min(1).max(100_000_000).default(1_000_000),
  /** The most output tokens the upstream model writes in one answer (its own limit for `max_tokens`, thinking included):
   * what a request translated from OpenAI's dialects asks for when it names no output limit, as OpenAI serves up to
   * the model's limit there, and the most a request may name (docs/gateway.md "Output limits"). Set it to the upstream
   * model's documented limit; absent, 4,096. Messages models only (registrySchema). */
  maxOutputTokens: z.number().int().min(1).max(100_000_000).optional(),
  /** The most sampling passes a server-side tool loop (web search, code execution, MCP) may run in one request. */
  serverToolPasses: z.number().int().min(1).max(1_000).default(10),
  resolutions: z.array(z.string()).optional(),
  prices: z.object({
    inputPerMTok: price.optional(),
    outputPerMTok: price.optional(),
    cacheReadPerMTok: price.optional(),
    /** 5-minute cache writes (and 1-hour ones when `cacheWrite1hPerMTok` is not set). */
    cacheWritePerMTok: price.optional(),
    cacheWrite1hPerMTok: price.optional(),
    /** USD per server-side web search / web fetch request (`usage.server_tool_use`). */
    webSearchPerRequest: price.optional(),
    webFetchPerRequest: price.optional(),
    perVideoSecond: price.optional(),
  }),
  /** Multipliers of the token prices per value of a price-raising request option (shared/gateway/price-options.ts),
   * e.g. `{speed: {fast: 6}, inference_geo: {us: 1.1}}`. A value neither listed nor standard is refused (400). */
  priceMultipliers: z
    .strictObject({
      speed: optionValues.optional(),
      inference_geo: optionValues.optional(),
      service_tier: optionValues.optional(),
    })
    .optional(),
  /** Higher token prices for a long-context request (see longContextSchema); none: one price whatever the input. */
  longContext: longContextSchema.optional(),
});

/** The registry's token prices with their documented fallbacks applied: cache read and the 5-minute write at the
 * input price, the 1-hour write at the 5-minute one, a missing price at 0. */
export function tokenPricesOf(p: z.infer<typeof modelSchema>['prices']): TokenPrices {
  const write5m = p.cacheWritePerMTok ?? p.inputPerMTok ?? 0;
  return {
    inputPerMTok: p.inputPerMTok ?? 0,
    outputPerMTok: p.outputPerMTok ?? 0,
    cacheReadPerMTok: p.cacheReadPerMTok ?? p.inputPerMTok ?? 0,
    cacheWritePerMTok: write5m,
    cacheWrite1hPerMTok: p.cacheWrite1hPerMTok ?? write5m,
  };
}

/** A long-context tier must start inside the window and never price a token below its standard price. */
function checkLongContext(m: z.infer<typeof modelSchema>, ctx: z.RefinementCtx, index: number): void {
  const tier = m.longContext;
  if (!tier) return;
  const at = (...path: (string | number)[]) => ['models', index, 'longContext', ...path];
  if (m.capability !== 'messages') {
    ctx.addIssue({ code: 'custom', path: at(), message: 'a long-context tier prices messages models only' });
  }
  if (tier.aboveInputTokens >= m.contextWindowTokens) {
    ctx.addIssue({
      code: 'custom',
      path: at('aboveInputTokens'),
      message: `must be below the model's contextWindowTokens (${m.contextWindowTokens})`,
    });
  }
  const standard = tokenPricesOf(m.prices);
  for (const name of tokenPriceNames) {
    if (tier.prices[name] < standard[name]) {
      ctx.addIssue({
        code: 'custom',
        path: at('prices', name),
        message: `a long-context price is at least the standard one (${standard[name]})`,
      });
    }
  }
}

/** An output limit belongs to a model that writes tokens: on a video or search model it would be a mistake of the
 * registry's author (meant for another entry), so it fails the load instead of being ignored. */
function checkOutputLimit(m: z.infer<typeof modelSchema>, ctx: z.RefinementCtx, index: number): void {
  if (m.maxOutputTokens === undefined || m.capability === 'messages') return;
  ctx.addIssue({
    code: 'custom',
    path: ['models', index, 'maxOutputTokens'],
    message: `an output limit applies to messages models only (this is a ${m.capability} model)`,
  });
}

const registrySchema = z
  .object({ models: z.array(modelSchema).min(1) })
  .superRefine((r, ctx) => {
    const seen = new Set<string>();
    r.models.forEach((m, i) => {
      if (seen.has(m.id)) ctx.addIssue({ code: 'custom', message: `duplicate model id ${m.id}` });
      seen.add(m.id);
      checkLongContext(m, ctx, i);
      checkOutputLimit(m, ctx, i);
    });
  })
  .transform((r) => ({
    models: r.models.map((m) => ({
      ...m,
      maxOutputTokens: m.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
      /** Whether the registry named the limit: only a named one refuses larger requests (a default is no vendor's). */
      namesOutputLimit: m.maxOutputTokens !== undefined,
    })),
  }));

export type ModelEntry = z.output<typeof registrySchema>['models'][number];

export class ModelRegistry {
  private readonly byId: Map<string, ModelEntry>;

  constructor(readonly models: ModelEntry[]) {
    this.byId = new Map(models.map((m) => [m.id, m]));
  }

  get(id: string): ModelEntry | undefined {
    return this.byId.get(id);
  }

  /** The model for a request, or 400 when it is unknown or of another capability. */
  resolve(id: unknown, capability: Capability): ModelEntry {
    const model = typeof id === 'string' ? this.byId.get(id) : undefined;
    if (!model || model.capability !== capability) {
      throw badRequest(
        'Model.Unknown',
        `Unknown ${capability} model: ${typeof id === 'string' ? id : String(id)}. ${this.offered(capability)}`,
      );
    }
    return model;
  }

  /** Names the models a caller may use instead: a client's default model id is rarely one this registry lists. */
  private offered(capability: Capability): string {
    const ids = this.models.filter((m) => m.capability === capability).map((m) => m.id);
    const shown = ids.length > 8 ? `${ids.slice(0, 8).join(', ')}, …` : ids.join(', ');
    return `The ${capability} models here: ${shown} (GET /v1/models lists every model).`;
  }
}

export const defaultRegistryPath = fileURLToPath(new URL('../../config/models.json', import.meta.url));

const cache = new Map<string, ModelRegistry>();

export function loadModelRegistry(path = defaultRegistryPath): ModelRegistry {
  let registry = cache.get(path);
  if (!registry) {
    const parsed = registrySchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    if (!parsed.success) {
      throw new Error(
        `MODEL_REGISTRY ${path} is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    }
    registry = new ModelRegistry(parsed.data.models);
    cache.set(path, registry);
  }
  return registry;
}
