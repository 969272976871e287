// What a Messages answer costs: its advisor sub-inferences at their advisor model's prices, the rest at the prices of
// the model that answered, each times the request's price-raising multipliers, summed exactly and rounded up once.
// The reservation (messages-estimate.ts) is an upper bound of this for any usage within its token bound.

import { advisorModel, servedModel } from './messages-models.js';
import type { AdvisorCall } from './messages-usage.js';
import type { ModelEntry } from './model-registry.js';
import { type PriceOptionValues, priceMultipliersOf } from './price-options.js';
import { exactTokenCostAt, requestCostMicros, roundUpMicros, type TokenUsage, tokenCostMicros } from './pricing.js';

/** The models of a request whose answer is being priced. */
export type AnswerModels = {
  /** Every model that may serve the request, its own first; the answer is billed at the one that did. */
  servingModels: ModelEntry[];
  /** The models its advisor tools name: an advisor sub-inference is billed at its model's prices. */
  advisorModels: ModelEntry[];
};

const less = (a: number | undefined, b: number | undefined) => Math.max(0, (a ?? 0) - (b ?? 0));

/**
 * The cost of an answer's usage. Each part is one (sub-)inference for a long-context tier: an advisor call is judged by
 * its own input, the rest by the answer's input less the advisor calls'. The parts' exact token costs are added before
 * the one rounding up, so the whole is never more than a bound priced in the same exact sum. (Until a security review,
 * all of it was priced at the answering model: a Haiku executor got Opus advice at Haiku's prices.)
 */
export function answerCostMicros(
  models: AnswerModels,
  options: PriceOptionValues | undefined,
  upstreamModel: unknown,
  usage: TokenUsage,
  advisor: AdvisorCall[],
): bigint {
  const executor = servedModel(models.servingModels, upstreamModel);
  const multipliers = (model: ModelEntry) => priceMultipliersOf(model, options);
  let own = usage;
  let exact = 0n;
  let requests = 0n;
  const add = (model: ModelEntry, u: TokenUsage) => {
    exact += exactTokenCostAt(model, u, multipliers(model));
    requests += requestCostMicros(model, u);
  };
  for (const call of advisor) {
    const u = call.usage;
    own = {
      inputTokens: less(own.inputTokens, u.inputTokens),
      outputTokens: less(own.outputTokens, u.outputTokens),
      cacheReadTokens: less(own.cacheReadTokens, u.cacheReadTokens),
      cacheWriteTokens: less(own.cacheWriteTokens, u.cacheWriteTokens),
      cacheWrite1hTokens: less(own.cacheWrite1hTokens, u.cacheWrite1hTokens),
      webSearchRequests: less(own.webSearchRequests, u.webSearchRequests),
      webFetchRequests: less(own.webFetchRequests, u.webFetchRequests),
    };
    const priced = advisorModel(models.advisorModels, call.model, (m) => tokenCostMicros(m, u, multipliers(m)));
    add(priced ?? executor, u);
  }
  add(executor, own);
  return roundUpMicros(exact) + requests;
}
