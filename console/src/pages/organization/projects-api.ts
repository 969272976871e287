// Projects of the current organization, for the pages that list or choose one.
import { useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../../api/http.js';

export type Project = {
  id: string;
  name: string;
  description?: string;
  organizationId: string;
  status: string;
  templateId?: string;
  createdAt: string;
};

export function useProjects(organizationId: string | undefined, page = 1) {
  return useQuery({
    queryKey: ['projects', organizationId, page],
    queryFn: () => api<Envelope<Project[]>>('/api/projects', { organizationId, query: { page, size: 50 } }),
    enabled: Boolean(organizationId),
  });
}
