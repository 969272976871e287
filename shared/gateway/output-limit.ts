// A named output limit above the most the model writes in one answer (the registry's `maxOutputTokens`) is refused
// before anything is held, counted or sent, in the words each vendor uses for it. Held, it sized the reservation for
// output the model can never write (a large limit answered a misleading 402); sent, the upstream refused it anyway.
// A request that names no limit is not concerned: the OpenAI dialects then ask for the model's whole output.
import { badRequest } from '../errors/app-error.js';
import type { ModelEntry, ModelRegistry } from './model-registry.js';

/** Only against a limit the registry names: without one, the 4,096 default (what an OpenAI-shaped request that names
 * no limit asks for) is not the model's, and refusing above it would turn away requests the upstream serves. */
const tooLarge = (requested: unknown, model: ModelEntry): requested is number =>
  model.namesOutputLimit && typeof requested === 'number' && requested > model.maxOutputTokens;

/** Anthropic's wording: `max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for …`. */
export function checkMessagesOutputLimit(param: string, requested: unknown, model: ModelEntry): void {
  if (!tooLarge(requested, model)) return;
  throw badRequest(
    'Messages.Invalid',
    `${param}: ${requested} > ${model.maxOutputTokens}, which is the maximum allowed number of output tokens for ${model.id}`,
  );
}

/** A Messages body's `max_tokens`, and each `fallbacks` entry's own, against the model it asks (the reservation holds
 * the largest of them, so a fallback's is checked as the request's is, a positive integer too). */
export function checkMessagesOutputLimits(
  body: Record<string, unknown>,
  model: ModelEntry,
  registry: ModelRegistry,
): void {
  checkMessagesOutputLimit('max_tokens', body.max_tokens, model);
  if (!Array.isArray(body.fallbacks)) return;
  for (const [i, entry] of body.fallbacks.entries()) {
    const fallback = entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
    // The hold is sized by the largest whole max_tokens: one it cannot count (127999.5, "64000") would go upstream
    // unheld, so it is refused here as the request's own is.
    const limit = fallback.max_tokens;
    if (limit !== undefined && !(typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 1)) {
      throw badRequest('Messages.Invalid', `fallbacks.${i}.max_tokens must be a positive integer`);
    }
    const fallbackModel = fallback.model === undefined ? model : registry.get(String(fallback.model));
    if (fallbackModel) checkMessagesOutputLimit(`fallbacks.${i}.max_tokens`, fallback.max_tokens, fallbackModel);
  }
}

/** OpenAI's wording: `max_tokens is too large: 100000. This model supports at most 64000 completion tokens, whereas
 * you provided 100000.`, under the dialect's code. */
export function checkOpenAiOutputLimit(
  code: 'ChatCompletions.Invalid' | 'Responses.Invalid',
  param: string,
  requested: number | null | undefined,
  model: ModelEntry,
): void {
  if (!tooLarge(requested, model)) return;
  const kind = code === 'ChatCompletions.Invalid' ? 'completion' : 'output';
  throw badRequest(
    code,
    `${param} is too large: ${requested}. ${model.id} supports at most ${model.maxOutputTokens} ${kind} tokens, ` +
      `whereas you provided ${requested}.`,
  );
}
