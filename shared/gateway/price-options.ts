// The Messages request options that raise the vendor's token price (fast mode, a pinned inference geography, a
// service tier) and what they multiply the registry's token prices by. A value the registry does not price for every
// model that may serve the request is refused before anything is reserved: forwarded untouched, such an option bought
// the vendor's premium at the standard price, and the operator paid the difference (security review).
import { badRequest } from '../errors/app-error.js';
import type { ModelEntry } from './model-registry.js';

/**
 * Each price-raising option and its values at the vendor's standard price, the default first: an absent (or null)
 * option is the default. Anthropic: `speed` `standard` | `fast` (fast mode, a multiple of the token prices);
 * `inference_geo` `global` | `us` (US-only inference, 1.1× on current models); `service_tier` `auto` (may use the
 * organization's Priority Tier capacity, which it has paid for in advance) | `standard_only`.
 */
export const standardValues = {
  speed: ['standard'],
  inference_geo: ['global'],
  service_tier: ['auto', 'standard_only'],
} as const satisfies Record<string, readonly string[]>;

export type PriceOption = keyof typeof standardValues;
export const priceOptions = Object.keys(standardValues) as PriceOption[];

/** The values a request chose, each option's default where it named none. */
export type PriceOptionValues = Record<PriceOption, string>;

const defaults: PriceOptionValues = { speed: 'standard', inference_geo: 'global', service_tier: 'auto' };

/** A multiplier (at most 6 decimals meaningful, like prices) as an integer number of millionths. */
const ppm = (multiplier: number): bigint => BigInt(Math.round(multiplier * 1_000_000));

/**
 * The multiplier of a model's token prices for one option's value: the registry's `priceMultipliers`, else 1 for a
 * standard value; undefined when the model has no price for it.
 */
function multiplierOf(model: ModelEntry, option: PriceOption, value: string): number | undefined {
  const priced = model.priceMultipliers?.[option];
  if (priced && Object.hasOwn(priced, value)) return priced[value];
  return (standardValues[option] as readonly string[]).includes(value) ? 1 : undefined;
}

/**
 * The price-raising options of a Messages body, checked against every model that may serve it (its own, fallbacks',
 * advisors'): `400 Messages.OptionNotPriced` names the option, the value and the model when the registry has no price
 * for it. A `fallbacks` entry may not set them (Anthropic takes only the `model` of a fallback; the request's own
 * options apply to every attempt).
 */
export function priceOptionsOf(body: Record<string, unknown>, models: ModelEntry[]): PriceOptionValues {
  const values = { ...defaults };
  for (const option of priceOptions) {
    const value = body[option];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') {
      throw badRequest('Messages.OptionNotPriced', `${option} must be a string, such as "${defaults[option]}".`);
    }
    values[option] = value;
    for (const model of models) {
      if (multiplierOf(model, option, value) === undefined) {
        throw badRequest(
          'Messages.OptionNotPriced',
          `${option} ${JSON.stringify(value.slice(0, 100))} is not offered for ${model.id} here: the gateway has no ` +
            `price for it. Leave ${option} out (or send "${defaults[option]}").`,
        );
      }
    }
  }
  const fallbacks = Array.isArray(body.fallbacks) ? body.fallbacks : [];
  fallbacks.forEach((entry, i) => {
    const set = priceOptions.find(
      (o) => entry && typeof entry === 'object' && (entry as Record<string, unknown>)[o] !== undefined,
    );
    if (set) {
      throw badRequest(
        'Messages.OptionNotPriced',
        `fallbacks.${i}.${set}: set ${set} for the whole request, not per fallback.`,
      );
    }
  });
  return values;
}

/** The multipliers (in millionths) a request's options put on a model's token prices; none at standard prices. */
export function priceMultipliersOf(model: ModelEntry, values: PriceOptionValues | undefined): bigint[] {
  if (!values) return [];
  const out: bigint[] = [];
  for (const option of priceOptions) {
    const multiplier = multiplierOf(model, option, values[option]);
    // priceOptionsOf refused an unpriced value before anything was reserved; never bill one at a guess.
    if (multiplier === undefined) throw new Error(`${model.id} has no price for ${option} ${values[option]}`);
    if (multiplier !== 1) out.push(ppm(multiplier));
  }
  return out;
}
