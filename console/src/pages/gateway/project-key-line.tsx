// The Connect panel's line about the project's API keys: how many it has (every key for an organization Admin or the
// project's Owner, from GET /api/projects/{id}/api-keys; one's own otherwise, from GET /api/v1/api-keys), where they
// are listed, and where to make one; and the names of those keys, for the request list's Key column.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, type Envelope } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatCountOf } from '../../format.js';
import { useApiKeys } from '../account/api-key-rows.js';
import { useManagesProject } from '../organization/project-members.js';

type Props = { projectId: string; organizationId: string; isAdmin: boolean };

function useKeyCount({ projectId, organizationId, isAdmin }: Props) {
  const { manager, decided } = useManagesProject(projectId, organizationId, isAdmin);
  // Under the project keys' query key, so revoking one on the project's page refreshes the count.
  const all = useQuery({
    queryKey: ['project-keys', projectId, 'count'],
    queryFn: () =>
      api<Envelope<unknown[]>>(apiPath`/api/projects/${projectId}/api-keys`, { organizationId, query: { size: 1 } }),
    enabled: decided && manager,
  });
  const own = useApiKeys();
  if (!decided) return undefined;
  if (manager) return all.data ? { count: all.data.total ?? 0, everyone: true } : undefined;
  return own.data ? { count: own.data.filter((k) => k.projectId === projectId).length, everyone: false } : undefined;
}

/**
 * The names of the project's keys the viewer may see, by id: the first 100 of every key for a manager (one read,
 * under the project keys' query key, so a revocation refreshes it), one's own otherwise.
 */
export function useKeyNames({ projectId, organizationId, isAdmin }: Props): Map<string, string> | undefined {
  const { manager, decided } = useManagesProject(projectId, organizationId, isAdmin);
  const all = useQuery({
    queryKey: ['project-keys', projectId, 'names'],
    queryFn: () =>
      api<Envelope<{ id: string; name: string }[]>>(apiPath`/api/projects/${projectId}/api-keys`, {
        organizationId,
        query: { size: 100 },
      }),
    enabled: decided && manager,
  });
  const own = useApiKeys();
  if (!decided) return undefined;
  const keys = manager ? all.data?.data : own.data?.filter((k) => k.projectId === projectId);
  return keys ? new Map(keys.map((k) => [k.id, k.name])) : undefined;
}

export function ProjectKeyLine(props: Props) {
  const keys = useKeyCount(props);
  const make = (
    <>
      make one on <Link to={`/account/keys?project=${props.projectId}`}>Account › API keys</Link>, choosing this project
    </>
  );
  if (!keys) return <>an API key of this project.</>;
  if (keys.count === 0) {
    return (
      <>
        an API key of this project: {keys.everyone ? 'it has none yet' : 'you have none for it yet'}; {make}.
      </>
    );
  }
  const listed = <Link to={`/org/projects/${props.projectId}`}>{keys.everyone ? 'see them' : 'see yours'}</Link>;
  return (
    <>
      an API key of this project:{' '}
      <span data-testid="project-key-count">
        {keys.everyone ? 'it has' : 'you have'} {formatCountOf(keys.count, 'API key')}
      </span>{' '}
      ({listed} on the project's page), or {make}.
    </>
  );
}
