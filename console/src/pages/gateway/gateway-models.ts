// The models a project's keys may call, with their prices (GET /api/projects/{projectId}/models).
import { useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';

export type PricedModel = {
  id: string;
  displayName: string;
  capability: 'messages' | 'video' | 'search';
  contextWindowTokens?: number;
  maxOutputTokens?: number;
  prices: {
    inputPerMTok?: number;
    outputPerMTok?: number;
    cacheReadPerMTok?: number;
    cacheWritePerMTok?: number;
    perVideoSecond?: number;
    perRequest?: number;
    /** Server tools a messages model runs upstream, billed per use on top of its tokens. */
    webSearchPerRequest?: number;
    webFetchPerRequest?: number;
  };
};

export function useProjectModels(projectId: string, organizationId: string) {
  return useQuery({
    queryKey: ['project-models', projectId],
    queryFn: () => api<Envelope<PricedModel[]>>(apiPath`/api/projects/${projectId}/models`, { organizationId }),
    staleTime: 5 * 60_000,
  });
}

/** The cheapest messages model by output price (a client's background model), else `fallback`. */
export function cheapestTextModel(models: PricedModel[], fallback: string): string {
  const text = models.filter((m) => m.capability === 'messages');
  const cost = (m: PricedModel) => m.prices.outputPerMTok ?? Number.POSITIVE_INFINITY;
  return (
    text.reduce<PricedModel | undefined>((best, m) => (!best || cost(m) < cost(best) ? m : best), undefined)?.id ??
    fallback
  );
}
