// The project's quota on the Gateway page: its usage against its limits (the project page's panel without its form),
// what the gateway answers past a limit, and who changes them: a link to the project's page for an organization Admin
// or the project's Owner, who may change them there.
import { Link } from 'react-router';
import { useManagesProject } from '../organization/project-members.js';
import { ProjectQuota } from '../organization/project-quota.js';

export function GatewayQuota(props: { projectId: string; organizationId: string; isAdmin: boolean }) {
  const { manager } = useManagesProject(props.projectId, props.organizationId, props.isAdmin);
  return (
    <ProjectQuota projectId={props.projectId} organizationId={props.organizationId} canManage={false}>
      <p className="muted">
        Past an enforced limit the gateway answers <code>429 Project.QuotaExceeded</code> until the window resets.{' '}
        {manager ? (
          <Link to={`/org/projects/${props.projectId}`}>Change the limits on the project's page</Link>
        ) : (
          "An organization Admin or the project's Owner sets the limits."
        )}
      </p>
    </ProjectQuota>
  );
}
