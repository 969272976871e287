// One project, under its own name and its organization's: its members, its API keys (everyone's for its Owner and the
// organization's Admins, the signed-in account's own otherwise), then its quota usage and limits (the long form last,
// so a phone reaches the members and keys first).
import { Link, useParams } from 'react-router';
import { isUuid } from '../../api/paths.js';
import { formatTime } from '../../format.js';
import {
  useLeaveOnOrganizationSwitch,
  useOrganization,
  useSwitchToObjectOrganization,
} from '../../session/organization.js';
import { Page } from '../../ui/page.js';
import { FormError, Loading, Notice } from '../../ui/status.js';
import { OrgTabs, WithOrganization } from './org-tabs.js';
import { ProjectKeys } from './project-keys.js';
import { ProjectMembers, useManagesProject, useProjectMembers } from './project-members.js';
import { ProjectQuota } from './project-quota.js';
import { projectNotFound, useProject } from './projects-api.js';

type ShownOrganization = { id: string; name: string; isAdmin: boolean };

function ProjectDetail({ projectId, current }: { projectId: string; current: ShownOrganization }) {
  const { organizations } = useOrganization();
  // A project's routes take its organization from the project; opened by its address, it may be another one of the
  // account's organizations than the current one: name that one, and act in it (its members, its Admin role).
  const project = useProject(projectId, current.id);
  const own = organizations.find((o) => o.id === project.data?.organizationId);
  const organization = own ? { id: own.id, name: own.name, isAdmin: own.role === 'Admin' } : current;
  const members = useProjectMembers(projectId, organization.id);
  // Whether the keys section shows everyone's keys waits for the members (an Owner is known by them) or their error.
  const { manager: canManage, decided: keysDecided } = useManagesProject(
    projectId,
    organization.id,
    organization.isAdmin,
  );
  if (project.isPending) return <Loading />;
  if (!project.data) return <FormError error={project.error} />;
  return (
    <>
      <p className="muted">
        A project of {organization.name} · created {formatTime(project.data.createdAt)} ·{' '}
        <Link to={`/gateway/${projectId}`}>gateway activity</Link>
      </p>
      {project.data.description ? <p>{project.data.description}</p> : null}
      <ProjectMembers projectId={projectId} organizationId={organization.id} canManage={canManage} members={members} />
      <ProjectKeys
        projectId={projectId}
        organizationId={organization.id}
        canManage={keysDecided ? canManage : undefined}
      />
      <ProjectQuota projectId={projectId} organizationId={organization.id} canManage={canManage} />
    </>
  );
}

export function ProjectPage() {
  const { projectId = '' } = useParams();
  const { current } = useOrganization();
  // The heading is the project's name (the same cached read as the detail's); "Project" only until it arrives.
  const project = useProject(projectId, current?.id);
  // Opened by its address while another of the account's organizations is current: that one becomes the project's,
  // so the header and the tabs (Members, Wallet …) show the organization the page is about; leaving happens only
  // when the person switches to yet another one.
  const organizationId = project.data?.organizationId;
  useLeaveOnOrganizationSwitch('/org/projects', true, organizationId);
  const switchedFrom = useSwitchToObjectOrganization(organizationId);
  return (
    <Page title={project.data?.name ?? 'Project'}>
      <OrgTabs />
      {switchedFrom && current && current.id === organizationId ? (
        <Notice>
          Switched to {current.name}, the organization of this project (it was {switchedFrom.name}).
        </Notice>
      ) : null}
      {/* An id that is no UUID names no project: its not-found state, and no request built from it. */}
      {isUuid(projectId) ? (
        <WithOrganization>{(org) => <ProjectDetail projectId={projectId} current={org} />}</WithOrganization>
      ) : (
        <FormError error={projectNotFound()} />
      )}
    </Page>
  );
}
