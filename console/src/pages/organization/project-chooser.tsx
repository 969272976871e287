// A choice of one project of the organization, a page at a time (a select and its pager), so every project is
// reachable however many the organization has; the chosen project stays chosen (and named) while another page shows.
import { useState } from 'react';
import { Field } from '../../ui/field.js';
import { Pager } from '../../ui/pager.js';
import { FormError } from '../../ui/status.js';
import { PROJECTS_PAGE_SIZE, useProject, useProjects } from './projects-api.js';

export function ProjectChooser(props: {
  organizationId: string;
  label: string;
  value: string;
  onChange: (projectId: string) => void;
  /** The first option, choosing no project; without it the select offers projects only. */
  none?: string;
  /** Only the caller's own projects (see useProjects). */
  mine?: boolean;
}) {
  // The page belongs to the organization it was turned in: another organization starts at its first page.
  const [at, setAt] = useState({ organizationId: props.organizationId, page: 1 });
  const page = at.organizationId === props.organizationId ? at.page : 1;
  const projects = useProjects(props.organizationId, page, props.mine);
  const list = projects.data?.data ?? [];
  const offPage = props.value !== '' && !list.some((p) => p.id === props.value);
  const chosen = useProject(offPage ? props.value : undefined, props.organizationId);
  return (
    <div className="project-chooser">
      <Field label={props.label}>
        {(control) => (
          <select {...control} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
            {props.none === undefined ? null : <option value="">{props.none}</option>}
            {offPage ? <option value={props.value}>{chosen.data?.name ?? 'The chosen project'}</option> : null}
            {list.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Pager
        label={`${props.label}: pages`}
        page={page}
        pageSize={PROJECTS_PAGE_SIZE}
        total={projects.data?.total}
        onPage={(next) => setAt({ organizationId: props.organizationId, page: next })}
      />
      <FormError error={projects.error} />
    </div>
  );
}
