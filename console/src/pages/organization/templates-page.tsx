// Project templates: every member sees the ones the organization can use (built-in, its own, others' public ones);
// an Admin creates the organization's own and deletes them (projects made from one keep their copied limits).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { apiData } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatCount } from '../../format.js';
import { useOrganization } from '../../session/organization.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { DataTable } from '../../ui/data-table.js';
import { Field } from '../../ui/field.js';
import { Page } from '../../ui/page.js';
import { Pager } from '../../ui/pager.js';
import { FormError, Loading, Notice } from '../../ui/status.js';
import { OrgTabs, WithOrganization } from './org-tabs.js';
import { limitKeys } from './quota-limits.js';
import { templateOwnerLabel } from './template-owner.js';
import { TEMPLATES_PAGE_SIZE, type Template, templateLimits, useTemplates } from './templates-api.js';

const emptyLimits = () => Object.fromEntries(limitKeys.map(([k]) => [k, ''])) as Record<string, string>;

function CreateTemplate({ organizationId }: { organizationId: string }) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [isPublic, setIsPublic] = useState(false);
  const [limits, setLimits] = useState(emptyLimits);
  const limit = (k: string) => (limits[k] ? Number(limits[k]) : undefined);
  const create = useMutation({
    mutationFn: () =>
      apiData<Template>('/api/project-templates', {
        method: 'POST',
        organizationId,
        body: {
          name,
          ...(description.trim() ? { description } : {}),
          isPublic,
          config: {
            quota: Object.fromEntries(
              limitKeys
                .filter(([k]) => k !== 'requestsPerMinuteLimit' && limit(k) !== undefined)
                .map(([k]) => [k, limit(k)]),
            ),
            rateLimit:
              limit('requestsPerMinuteLimit') === undefined
                ? {}
                : { requestsPerMinuteLimit: limit('requestsPerMinuteLimit') },
          },
        },
      }),
    onSuccess: () => {
      setName('');
      setDescription('');
      setLimits(emptyLimits());
      void client.invalidateQueries({ queryKey: ['templates', organizationId] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <section className="panel">
      <h2>New template</h2>
      <form className="stack" onSubmit={submit} aria-label="Create a project template">
        <div className="grid2">
          <Field label="Template name">
            {(p) => <input {...p} maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <Field label="Description">
            {(p) => (
              <input {...p} maxLength={1000} value={description} onChange={(e) => setDescription(e.target.value)} />
            )}
          </Field>
          {limitKeys.map(([k, label]) => (
            <Field key={k} label={label} hint="Empty: no limit.">
              {(p) => (
                <input
                  {...p}
                  type="number"
                  min={0}
                  step={1}
                  value={limits[k] ?? ''}
                  onChange={(e) => setLimits((s) => ({ ...s, [k]: e.target.value }))}
                />
              )}
            </Field>
          ))}
        </div>
        <label className="row">
          <input type="checkbox" checked={isPublic} onChange={(e) => setIsPublic(e.target.checked)} /> Public: every
          organization can use it (at most 20 public templates per organization)
        </label>
        <FormError error={create.error} />
        {create.isSuccess ? <Notice>Template "{create.data.name}" created.</Notice> : null}
        <div>
          <button type="submit" className="primary" disabled={create.isPending}>
            Create template
          </button>
        </div>
      </form>
    </section>
  );
}

function DeleteTemplate({ template, organizationId }: { template: Template; organizationId: string }) {
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      apiData<Template>(apiPath`/api/project-templates/${template.id}`, { method: 'DELETE', organizationId }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['templates', organizationId] }),
  });
  return (
    <>
      <div className="row">
        <ConfirmButton
          label="Delete"
          confirmLabel="Delete for good"
          disabled={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      <FormError error={remove.error} />
    </>
  );
}

function TemplateList({ organizationId, isAdmin }: { organizationId: string; isAdmin: boolean }) {
  const { organizations } = useOrganization();
  const [page, setPage] = useState(1);
  const templates = useTemplates(organizationId, page, TEMPLATES_PAGE_SIZE);
  if (templates.isPending) return <Loading />;
  return (
    <section className="panel">
      <h2>Templates</h2>
      <p className="muted">
        A project made from a template copies its limits; deleting or changing the template later leaves the project as
        it is.
      </p>
      <FormError error={templates.error} />
      <DataTable
        label="Project templates"
        columns={[
          'Name',
          'From',
          'Visibility',
          'Limits',
          { label: 'Projects made', num: true },
          ...(isAdmin ? [{ label: 'Delete', hidden: true }] : []),
        ]}
        rows={templates.data?.data}
        total={templates.data?.total}
        busy={templates.isPlaceholderData}
        empty="No templates."
      >
        {(t) => (
          <tr key={t.id}>
            <td>
              {t.name}
              {t.description ? <div className="muted">{t.description}</div> : null}
            </td>
            <td>{templateOwnerLabel(t, organizationId, organizations)}</td>
            <td>{t.isPublic ? 'Public' : 'Private'}</td>
            <td>{templateLimits(t)}</td>
            <td className="num">{formatCount(t.usageCount)}</td>
            {isAdmin ? (
              <td>
                {!t.isSystem && t.organizationId === organizationId ? (
                  <DeleteTemplate template={t} organizationId={organizationId} />
                ) : null}
              </td>
            ) : null}
          </tr>
        )}
      </DataTable>
      {templates.data ? (
        <Pager
          page={templates.data.page ?? page}
          pageSize={templates.data.size ?? TEMPLATES_PAGE_SIZE}
          total={templates.data.total}
          onPage={setPage}
        />
      ) : null}
    </section>
  );
}

export function TemplatesPage() {
  return (
    <Page title="Project templates">
      <OrgTabs />
      <WithOrganization>
        {(org) => (
          <>
            {org.isAdmin ? <CreateTemplate organizationId={org.id} /> : null}
            <TemplateList organizationId={org.id} isAdmin={org.isAdmin} />
          </>
        )}
      </WithOrganization>
    </Page>
  );
}
