// Pages of the model registry as Anthropic's Models API lists them: newest first, `limit` entries after
// `after_id` or before `before_id`.
import { badRequest } from '../errors/app-error.js';
import type { ModelEntry, ModelRegistry } from './model-registry.js';

export type ModelPageQuery = { limit: number; afterId?: string | undefined; beforeId?: string | undefined };
export type ModelPage = { models: ModelEntry[]; hasMore: boolean };

/** Newest first, then by id, so pages are stable. */
export function modelsNewestFirst(registry: ModelRegistry): ModelEntry[] {
  return [...registry.models].sort((a, b) =>
    a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? 1 : -1,
  );
}

export function modelPage(registry: ModelRegistry, query: ModelPageQuery): ModelPage {
  const all = modelsNewestFirst(registry);
  const indexOf = (id: string, param: string) => {
    const index = all.findIndex((m) => m.id === id);
    if (index < 0) throw badRequest('Models.InvalidCursor', `${param}: no model ${id}.`);
    return index;
  };
  if (query.beforeId !== undefined) {
    const end = indexOf(query.beforeId, 'before_id');
    const start = Math.max(0, end - query.limit);
    return { models: all.slice(start, end), hasMore: start > 0 };
  }
  const start = query.afterId !== undefined ? indexOf(query.afterId, 'after_id') + 1 : 0;
  return { models: all.slice(start, start + query.limit), hasMore: start + query.limit < all.length };
}
