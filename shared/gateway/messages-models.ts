// The models a Messages body names — its `model`, and the `model` of each `fallbacks` entry and advisor tool —
// must be registry models of the messages capability; each is replaced by its upstream id before forwarding.
import { badRequest } from '../errors/app-error.js';
import type { ModelEntry, ModelRegistry } from './model-registry.js';

export type MappedMessagesBody = {
  /** The body to forward: the caller's, with every model id replaced by its upstream id. */
  upstreamBody: Record<string, unknown>;
  model: ModelEntry;
  /** Every model that may serve (and bill) the request, each once: the request's own first. */
  servingModels: ModelEntry[];
  /** The models the request's advisor tools name, each once: their sub-inferences are billed at their prices. */
  advisorModels: ModelEntry[];
};

function mapEntries(
  registry: ModelRegistry,
  entries: unknown,
  field: string,
  applies: (entry: Record<string, unknown>) => boolean,
  found: ModelEntry[],
): unknown {
  if (!Array.isArray(entries)) return entries;
  return entries.map((entry, i) => {
    if (!entry || typeof entry !== 'object' || !applies(entry as Record<string, unknown>)) return entry;
    const named = (entry as Record<string, unknown>).model;
    if (named === undefined) return entry;
    const model = registry.get(String(named));
    if (model?.capability !== 'messages') {
      throw badRequest('Model.Unknown', `${field}.${i}.model: unknown messages model ${String(named)}.`);
    }
    if (!found.includes(model)) found.push(model);
    return { ...entry, model: model.upstreamModel };
  });
}

export function mapMessagesModels(registry: ModelRegistry, body: Record<string, unknown>): MappedMessagesBody {
  const model = registry.resolve(body.model, 'messages');
  const servingModels = [model];
  const upstreamBody: Record<string, unknown> = { ...body, model: model.upstreamModel };
  if (body.fallbacks !== undefined) {
    upstreamBody.fallbacks = mapEntries(registry, body.fallbacks, 'fallbacks', () => true, servingModels);
  }
  const advisorModels: ModelEntry[] = [];
  if (body.tools !== undefined) {
    upstreamBody.tools = mapEntries(
      registry,
      body.tools,
      'tools',
      (tool) => typeof tool.type === 'string' && tool.type.startsWith('advisor_'),
      advisorModels,
    );
    for (const advisor of advisorModels) if (!servingModels.includes(advisor)) servingModels.push(advisor);
  }
  return { upstreamBody, model, servingModels, advisorModels };
}

/**
 * The model an advisor sub-inference is priced at: the advisor model it names among those the request's advisor
 * tools named; else the dearest of those for this call (`costOf`, which prices the call's usage with the request's
 * price options, so a fast-mode multiplier counts); else none (the executor's prices).
 */
export function advisorModel(
  advisors: ModelEntry[],
  upstreamModel: string | undefined,
  costOf: (model: ModelEntry) => bigint,
): ModelEntry | undefined {
  const named = advisors.find((m) => m.upstreamModel === upstreamModel);
  if (named) return named;
  let dearest: { model: ModelEntry; cost: bigint } | undefined;
  for (const model of advisors) {
    const cost = costOf(model);
    if (!dearest || cost > dearest.cost) dearest = { model, cost };
  }
  return dearest?.model;
}

/** The registry model an upstream answer says served it, among those the request allowed; else the request's own. */
export function servedModel(candidates: ModelEntry[], upstreamModel: unknown): ModelEntry {
  return candidates.find((m) => m.upstreamModel === upstreamModel) ?? (candidates[0] as ModelEntry);
}
