// Projects of the current organization, for the pages that list or choose one.
import { useQuery } from '@tanstack/react-query';
import { api, apiData, type Envelope } from '../../api/http.js';
import { apiPath, isUuid, notFoundError } from '../../api/paths.js';

export type Project = {
  id: string;
  name: string;
  description?: string;
  organizationId: string;
  status: string;
  templateId?: string;
  createdAt: string;
};

/** A page of the projects list; also a page of what the project chooser (a key's project, the gateway page) offers. */
export const PROJECTS_PAGE_SIZE = 50;

/** `mine`: only the projects the caller is a member of (the ones an organization Member may bind a key to). */
export function useProjects(organizationId: string | undefined, page = 1, mine = false) {
  return useQuery({
    queryKey: ['projects', organizationId, page, mine],
    queryFn: () =>
      api<Envelope<Project[]>>('/api/projects', {
        organizationId,
        query: { page, size: PROJECTS_PAGE_SIZE, ...(mine ? { mine: 'true' } : {}) },
      }),
    enabled: Boolean(organizationId),
    // The previous page stays on screen while the next loads; never another organization's projects.
    placeholderData: (previous, query) => (query?.queryKey[1] === organizationId ? previous : undefined),
  });
}

/** What the API answers for a project the caller cannot see, or an id that names none. */
export const projectNotFound = () => notFoundError('Project.NotFound', 'No such project.');

/** One project, read by id: the API takes its organization from the project (404 outside the caller's organizations);
 * an id that is no UUID (an address typed or crafted) is not found without asking. */
export function useProject(projectId: string | undefined, organizationId?: string) {
  return useQuery({
    queryKey: ['project', projectId],
    queryFn: () =>
      isUuid(projectId)
        ? apiData<Project>(apiPath`/api/projects/${projectId}`, { organizationId })
        : Promise.reject(projectNotFound()),
    enabled: Boolean(projectId),
  });
}
