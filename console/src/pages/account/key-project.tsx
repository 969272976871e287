// The project a gateway key is bound to, by name: a link to it when it is a project of the current organization;
// a project of another organization says so (named, with its organization, when the viewer belongs to that one too).
import { Link } from 'react-router';
import { ApiError } from '../../api/http.js';
import { useOrganization } from '../../session/organization.js';
import { useProject } from '../organization/projects-api.js';

export function KeyProject({ projectId }: { projectId: string }) {
  const { current, organizations } = useOrganization();
  const project = useProject(projectId, current?.id);
  if (project.isPending) return <span className="muted">Project…</span>;
  if (!project.data) {
    // The API answers 404 for a project of an organization the viewer is not a member of (leaving one deletes the
    // keys bound to its projects, so this is rare).
    const elsewhere = project.error instanceof ApiError && project.error.status === 404;
    return <span>{elsewhere ? 'A project of another organization' : 'Project (its name could not be read)'}</span>;
  }
  if (project.data.organizationId === current?.id) {
    return <Link to={`/org/projects/${projectId}`}>{project.data.name}</Link>;
  }
  const organization = organizations.find((o) => o.id === project.data.organizationId);
  return (
    <span>
      {project.data.name}{' '}
      <span className="muted">(another organization{organization ? `: ${organization.name}` : ''})</span>
    </span>
  );
}
