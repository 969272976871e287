// The Overview tab: the current organization at a glance (overview.tsx), then the organizations the account belongs
// to (switch between them), and creating a new one.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { apiData } from '../../api/http.js';
import { formatTime } from '../../format.js';
import { ORGANIZATIONS_KEY, type Organization, useOrganization } from '../../session/organization.js';
import { DataTable } from '../../ui/data-table.js';
import { Field } from '../../ui/field.js';
import { Page } from '../../ui/page.js';
import { FormError } from '../../ui/status.js';
import { OrgTabs } from './org-tabs.js';
import { OrganizationOverview } from './overview.js';

function CreateOrganization() {
  const client = useQueryClient();
  const { select } = useOrganization();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => apiData<Organization>('/api/organizations', { method: 'POST', body: { name } }),
    onSuccess: (org) => {
      setName('');
      select(org.id);
      void client.invalidateQueries({ queryKey: ORGANIZATIONS_KEY });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form className="row" onSubmit={submit} aria-label="Create an organization">
      <Field label="New organization name">
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <button type="submit" disabled={create.isPending}>
        Create organization
      </button>
      <FormError error={create.error} />
    </form>
  );
}

export function OrganizationPage() {
  const { organizations, current, select } = useOrganization();
  return (
    <Page title={current ? current.name : 'Organization'}>
      <OrgTabs />
      {current ? (
        <OrganizationOverview key={current.id} organizationId={current.id} isAdmin={current.role === 'Admin'} />
      ) : null}
      <section className="panel">
        <h2>My organizations</h2>
        <DataTable
          label="My organizations"
          columns={['Name', 'My role', 'Created', { label: 'Switch', hidden: true }]}
          rows={organizations}
          empty="None yet."
        >
          {(o) => (
            <tr key={o.id}>
              <td>{o.name}</td>
              <td>{o.role}</td>
              <td>{formatTime(o.createdAt)}</td>
              <td>
                {o.id === current?.id ? (
                  <strong>current</strong>
                ) : (
                  <button type="button" onClick={() => select(o.id)}>
                    Switch to {o.name}
                  </button>
                )}
              </td>
            </tr>
          )}
        </DataTable>
      </section>
      <section className="panel">
        <h2>Create an organization</h2>
        <p className="muted">You become its Admin; it gets a wallet in USD.</p>
        <CreateOrganization />
      </section>
    </Page>
  );
}
