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

/** A page of the projects list; also what the project choosers (a key's project, the gateway page) offer. */
export const PROJECTS_PAGE_SIZE = 50;

export function useProjects(organizationId: string | undefined, page = 1) {
  return useQuery({
    queryKey: ['projects', organizationId, page],
    queryFn: () =>
      api<Envelope<Project[]>>('/api/projects', { organizationId, query: { page, size: PROJECTS_PAGE_SIZE } }),
    enabled: Boolean(organizationId),
    // The previous page stays on screen while the next loads; never another organization's projects.
    placeholderData: (previous, query) => (query?.queryKey[1] === organizationId ? previous : undefined),
  });
}
