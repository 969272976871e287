// Project templates as the API lists them (built-in, the organization's own, others' public ones), for the
// project form and the templates page.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../../api/http.js';
import { formatCount } from '../../format.js';
import { type LimitKey, limitKeys } from './quota-limits.js';

export type Template = {
  id: string;
  name: string;
  description?: string;
  category: string;
  isSystem: boolean;
  isPublic: boolean;
  usageCount: number;
  organizationId?: string;
  createdAt: string;
  config: {
    quota: Partial<Record<Exclude<LimitKey, 'requestsPerMinuteLimit'>, number | null>>;
    rateLimit: { requestsPerMinuteLimit?: number | null };
  };
};

export const TEMPLATES_PAGE_SIZE = 50;

export function useTemplates(organizationId: string, page = 1, size = 100) {
  return useQuery({
    queryKey: ['templates', organizationId, page, size],
    queryFn: () => api<Envelope<Template[]>>('/api/project-templates', { organizationId, query: { page, size } }),
    placeholderData: keepPreviousData,
  });
}

/** The limits a template sets, as "1,000 requests per day · 20 requests per minute"; "no limits" when none. */
export function templateLimits(t: Template): string {
  const value = (k: LimitKey) =>
    k === 'requestsPerMinuteLimit' ? t.config.rateLimit.requestsPerMinuteLimit : t.config.quota[k];
  const parts = limitKeys.flatMap(([k, label]) => {
    const v = value(k);
    return v ? [`${formatCount(v)} ${label.toLowerCase()}`] : [];
  });
  return parts.join(' · ') || 'no limits';
}
