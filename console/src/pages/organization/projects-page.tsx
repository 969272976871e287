// Projects of the current organization; Admins create one, blank or from a template (which also creates the
// project's API key, shown here once).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { apiData } from '../../api/http.js';
import { formatTime } from '../../format.js';
import { ShownOnce } from '../../ui/copy-button.js';
import { DataTable } from '../../ui/data-table.js';
import { Field } from '../../ui/field.js';
import { Page } from '../../ui/page.js';
import { Pager } from '../../ui/pager.js';
import { FormError, Loading, Notice } from '../../ui/status.js';
import { OrgTabs, WithOrganization } from './org-tabs.js';
import { PROJECTS_PAGE_SIZE, type Project, useProjects } from './projects-api.js';
import { TemplateSelect } from './template-select.js';
import { useTemplates } from './templates-api.js';

type FromTemplate = Project & { templateName: string; apiKeys: { name: string; token: string }[] };

function CreateProject({ organizationId }: { organizationId: string }) {
  const client = useQueryClient();
  const templates = useTemplates(organizationId);
  const [name, setName] = useState('');
  const [templateId, setTemplateId] = useState('');
  const create = useMutation({
    mutationFn: () =>
      templateId
        ? apiData<FromTemplate>('/api/projects/from-template', {
            method: 'POST',
            organizationId,
            body: { name, templateId },
          })
        : apiData<Project>('/api/projects', { method: 'POST', organizationId, body: { name } }),
    onSuccess: () => {
      setName('');
      void client.invalidateQueries({ queryKey: ['projects', organizationId] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  const created = create.data as FromTemplate | undefined;
  const key = created?.apiKeys?.[0];
  return (
    <section className="panel">
      <h2>New project</h2>
      <form className="row" onSubmit={submit} aria-label="Create a project">
        <Field label="Project name">
          {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <TemplateSelect
          organizationId={organizationId}
          templates={templates.data?.data ?? []}
          value={templateId}
          onChange={setTemplateId}
        />
        <button type="submit" className="primary" disabled={create.isPending}>
          Create project
        </button>
      </form>
      <FormError error={create.error ?? templates.error} />
      {created && !key ? (
        <Notice>
          Project <Link to={`/org/projects/${created.id}`}>{created.name}</Link> created.
        </Notice>
      ) : null}
      {key ? (
        <ShownOnce
          label={`API key of "${created?.name}" (${created?.templateName})`}
          value={key.token}
          onDone={() => create.reset()}
        />
      ) : null}
    </section>
  );
}

function ProjectList({ organizationId, isAdmin }: { organizationId: string; isAdmin: boolean }) {
  const [page, setPage] = useState(1);
  const projects = useProjects(organizationId, page);
  if (projects.isPending) return <Loading />;
  return (
    <section className="panel">
      <h2>Projects</h2>
      <FormError error={projects.error} />
      <DataTable
        label="Projects"
        columns={['Name', 'Created', { label: 'Links', hidden: true }]}
        rows={projects.data?.data}
        busy={projects.isPlaceholderData}
        empty={
          isAdmin
            ? 'No projects yet. Create the first one above: from a template it comes with its quota and an API key.'
            : 'No projects yet: an organization Admin creates them.'
        }
      >
        {(p) => (
          <tr key={p.id}>
            <td>
              <Link to={`/org/projects/${p.id}`}>{p.name}</Link>
              {p.description ? <div className="muted">{p.description}</div> : null}
            </td>
            <td>{formatTime(p.createdAt)}</td>
            <td>
              <Link to={`/gateway/${p.id}`}>Gateway activity</Link>
            </td>
          </tr>
        )}
      </DataTable>
      <Pager page={page} pageSize={PROJECTS_PAGE_SIZE} total={projects.data?.total} onPage={setPage} />
    </section>
  );
}

export function ProjectsPage() {
  return (
    <Page title="Projects">
      <OrgTabs />
      <WithOrganization>
        {(org) => (
          <>
            {org.isAdmin ? <CreateProject organizationId={org.id} /> : null}
            <ProjectList organizationId={org.id} isAdmin={org.isAdmin} />
          </>
        )}
      </WithOrganization>
    </Page>
  );
}
