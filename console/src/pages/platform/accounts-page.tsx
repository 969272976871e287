// Every account (search by e-mail or name) with its roles, which a platform Admin changes here; and provisioning
// a new account.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, type CatalogPage } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatCount, formatTime } from '../../format.js';
import type { Role } from '../../session/session.js';
import { DataTable } from '../../ui/data-table.js';
import { Field } from '../../ui/field.js';
import { Page } from '../../ui/page.js';
import { Pager } from '../../ui/pager.js';
import { FormError, Notice } from '../../ui/status.js';
import { PlatformTabs } from './platform-tabs.js';

type Account = { id: string; email: string; name: string; roles: Role[]; dailyQuota: number; createdAt: string };
const allRoles: Role[] = ['Publisher', 'Moderator', 'Admin'];

/**
 * One account; its row stays mounted while the list refetches (keyed by id alone), so "Saved." outlives the refetch
 * that follows the save (keyed by the roles too, the saved row was replaced by a fresh one, message and all).
 */
function AccountRow({ account }: { account: Account }) {
  const client = useQueryClient();
  // The admin's unsaved choice; none: the roles the list shows (so a refetch shows another admin's change too).
  const [draft, setDraft] = useState<Role[]>();
  const roles = draft ?? account.roles;
  const save = useMutation({
    mutationFn: (sent: Role[]) =>
      api<Account>(apiPath`/api/v1/admin/accounts/${account.id}/roles`, { method: 'PUT', body: { roles: sent } }),
    // Pending (the button disabled) until the list shows the saved roles; then the saved draft is done with (one
    // changed again meanwhile stays, to be saved).
    onSuccess: async (_saved, sent) => {
      await client.invalidateQueries({ queryKey: ['admin-accounts'] });
      setDraft((d) => (d === sent ? undefined : d));
    },
  });
  const changed = roles.slice().sort().join() !== account.roles.slice().sort().join();
  return (
    <tr>
      <td>
        {account.name}
        <div className="muted email">{account.email}</div>
      </td>
      <td>
        <fieldset className="row">
          <legend className="visually-hidden">Roles of {account.email}</legend>
          {allRoles.map((r) => (
            <label key={r} className="row">
              <input
                type="checkbox"
                checked={roles.includes(r)}
                onChange={(e) => setDraft(e.target.checked ? [...roles, r] : roles.filter((x) => x !== r))}
              />
              {r}
            </label>
          ))}
        </fieldset>
        <FormError error={save.error} />
      </td>
      <td className="num">{formatCount(account.dailyQuota)}</td>
      <td>{formatTime(account.createdAt)}</td>
      <td>
        <div className="row">
          <button
            type="button"
            aria-label={`Save roles of ${account.email}`}
            disabled={!changed || save.isPending}
            onClick={() => save.mutate(roles)}
          >
            Save roles
          </button>
          {/* The button only turned grey: say the roles were saved until they are changed again. */}
          <span role="status" className="muted">
            {save.isSuccess && draft === undefined ? 'Saved.' : ''}
          </span>
        </div>
      </td>
    </tr>
  );
}

function ProvisionForm() {
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api<Account>('/api/v1/admin/accounts', { method: 'POST', body: { email, name, password, roles: [] } }),
    onSuccess: () => {
      setEmail('');
      setName('');
      setPassword('');
      void client.invalidateQueries({ queryKey: ['admin-accounts'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form className="row" onSubmit={submit} aria-label="Provision an account">
      <Field label="E-mail">
        {(p) => <input {...p} type="email" value={email} onChange={(e) => setEmail(e.target.value)} />}
      </Field>
      <Field label="Name">{(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}</Field>
      <Field label="Initial password">
        {(p) => (
          <input
            {...p}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        )}
      </Field>
      <button type="submit" disabled={create.isPending}>
        Create account
      </button>
      <FormError error={create.error} />
      {create.data ? <Notice>Created {create.data.email}.</Notice> : null}
    </form>
  );
}

export function AccountsAdminPage() {
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const [page, setPage] = useState(1);
  const accounts = useQuery({
    queryKey: ['admin-accounts', applied, page],
    queryFn: () =>
      api<CatalogPage<Account>>('/api/v1/admin/accounts', { query: { search: applied, page, pageSize: 20 } }),
    placeholderData: keepPreviousData,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setApplied(search.trim());
    setPage(1);
  };
  return (
    <Page title="Platform">
      <PlatformTabs />
      <section className="panel">
        <h2>Provision an account</h2>
        <ProvisionForm />
      </section>
      <search>
        <form className="row" onSubmit={submit} aria-label="Account search">
          <Field label="Find accounts">
            {(p) => <input {...p} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />}
          </Field>
          <button type="submit">Search</button>
        </form>
      </search>
      <FormError error={accounts.error} />
      <DataTable
        label="Accounts"
        columns={['Account', 'Roles', { label: 'Daily quota', num: true }, 'Created', { label: 'Save', hidden: true }]}
        rows={accounts.data?.items}
        busy={accounts.isPlaceholderData}
        empty={applied ? `No account matches "${applied}".` : 'No accounts.'}
      >
        {(a) => <AccountRow key={a.id} account={a} />}
      </DataTable>
      {accounts.data ? (
        <Pager
          page={accounts.data.page}
          pageSize={accounts.data.pageSize}
          total={accounts.data.total}
          onPage={setPage}
        />
      ) : null}
    </Page>
  );
}
