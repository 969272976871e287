// The Overview's projects: how many, and the newest few, each a link with its gateway requests today (from its
// quota counters, as the project page reads them).
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { apiData } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatCount, formatCountOf } from '../../format.js';
import { DataTable } from '../../ui/data-table.js';
import { FormError, Loading } from '../../ui/status.js';
import { useProjects } from './projects-api.js';

/** How many of the newest projects the Overview lists (one usage read each); the Projects page has them all. */
export const OVERVIEW_PROJECTS = 5;

function RequestsToday({ projectId, organizationId }: { projectId: string; organizationId: string }) {
  const usage = useQuery({
    queryKey: ['quota-usage', projectId, 'day'],
    queryFn: () =>
      apiData<{ dailyUsage: { requestCount: number } }>(apiPath`/api/projects/${projectId}/quota-usage`, {
        organizationId,
        query: { period: 'day' },
      }),
  });
  return <td className="num">{usage.data ? formatCount(usage.data.dailyUsage.requestCount) : '—'}</td>;
}

export function OverviewProjects({ organizationId }: { organizationId: string }) {
  const projects = useProjects(organizationId);
  const total = projects.data?.total ?? 0;
  return (
    <section className="panel" aria-labelledby="overview-projects">
      <h2 id="overview-projects">
        <Link to="/org/projects">Projects</Link>
      </h2>
      {projects.isPending ? <Loading /> : null}
      <FormError error={projects.error} />
      {projects.data ? (
        <>
          <p data-testid="overview-project-count">
            {formatCountOf(total, 'project')}
            {total > OVERVIEW_PROJECTS ? <span className="muted">, the newest {OVERVIEW_PROJECTS}:</span> : null}
          </p>
          <DataTable
            label="Newest projects"
            columns={['Project', { label: 'Requests today (UTC)', num: true }]}
            rows={projects.data.data.slice(0, OVERVIEW_PROJECTS)}
            empty="No projects yet."
          >
            {(p) => (
              <tr key={p.id}>
                <td>
                  <Link to={`/org/projects/${p.id}`}>{p.name}</Link>
                </td>
                <RequestsToday projectId={p.id} organizationId={organizationId} />
              </tr>
            )}
          </DataTable>
        </>
      ) : null}
    </section>
  );
}
