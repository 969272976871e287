// One project: what it is, its quota usage and limits, its members.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { apiData } from '../../api/http.js';
import { formatTime } from '../../format.js';
import { useLeaveOnOrganizationSwitch } from '../../session/organization.js';
import { useMe } from '../../session/session.js';
import { Page } from '../../ui/page.js';
import { FormError, Loading } from '../../ui/status.js';
import { OrgTabs, WithOrganization } from './org-tabs.js';
import { ProjectQuota } from './project-quota.js';
import { useProject } from './projects-api.js';

type ProjectMember = { userId: string; email: string; name: string; role: 'Owner' | 'Member'; addedAt: string };

function ProjectDetail({
  projectId,
  organizationId,
  isOrgAdmin,
}: {
  projectId: string;
  organizationId: string;
  isOrgAdmin: boolean;
}) {
  const me = useMe().data;
  const project = useProject(projectId, organizationId);
  const members = useQuery({
    queryKey: ['project-members', projectId],
    queryFn: () => apiData<ProjectMember[]>(`/api/projects/${projectId}/members`, { organizationId }),
  });
  if (project.isPending) return <Loading />;
  if (!project.data) return <FormError error={project.error} />;
  const isOwner = (members.data ?? []).some((m) => m.userId === me?.id && m.role === 'Owner');
  return (
    <>
      <h2>{project.data.name}</h2>
      <p className="muted">
        Created {formatTime(project.data.createdAt)} · <Link to={`/gateway/${projectId}`}>gateway activity</Link> ·{' '}
        <Link to={`/account/keys?project=${projectId}`}>make an API key for this project</Link>
      </p>
      <ProjectQuota projectId={projectId} organizationId={organizationId} canManage={isOrgAdmin || isOwner} />
      <section className="panel">
        <h2>Project members</h2>
        <FormError error={members.error} />
        <ul className="plain">
          {(members.data ?? []).map((m) => (
            <li key={m.userId}>
              {m.name} <span className="muted">{m.email}</span> — {m.role}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

export function ProjectPage() {
  const { projectId = '' } = useParams();
  useLeaveOnOrganizationSwitch('/org/projects', true);
  return (
    <Page title="Project">
      <OrgTabs />
      <WithOrganization>
        {(org) => <ProjectDetail projectId={projectId} organizationId={org.id} isOrgAdmin={org.isAdmin} />}
      </WithOrganization>
    </Page>
  );
}
