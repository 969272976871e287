// Recharges and refunds across organizations: every organization with its wallet; for the chosen one, a recharge
// and its consumption records with a refund each.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, type CatalogPage } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatCount, formatMoney, formatTime } from '../../format.js';
import { DataTable } from '../../ui/data-table.js';
import { Field } from '../../ui/field.js';
import { Page } from '../../ui/page.js';
import { Pager } from '../../ui/pager.js';
import { FormError } from '../../ui/status.js';
import { RechargeForm } from '../organization/recharge-form.js';
import { RefundForm } from '../organization/refund-form.js';
import type { WalletRecord } from '../organization/wallet-api.js';
import { PlatformTabs } from './platform-tabs.js';

type Org = {
  id: string;
  name: string;
  createdAt: string;
  memberCount: number;
  wallet?: { balance: number; frozenAmount: number; currency: string };
};

function Consumptions({ org }: { org: Org }) {
  const [page, setPage] = useState(1);
  const records = useQuery({
    queryKey: ['admin-records', org.id, page],
    queryFn: () =>
      api<CatalogPage<WalletRecord>>(apiPath`/api/v1/admin/organizations/${org.id}/wallet/records`, {
        query: { type: 'Consume', page, pageSize: 10 },
      }),
    placeholderData: keepPreviousData,
  });
  // A consumption is refunded at most once: the refunds name the record they reverse.
  const refunds = useQuery({
    queryKey: ['admin-records', org.id, 'refunds'],
    queryFn: () =>
      api<CatalogPage<WalletRecord>>(apiPath`/api/v1/admin/organizations/${org.id}/wallet/records`, {
        query: { type: 'Refund', pageSize: 100 },
      }),
  });
  const refunded = new Set((refunds.data?.items ?? []).map((r) => r.refundOf));
  const currency = org.wallet?.currency ?? 'USD';
  return (
    <>
      <h3>Consumptions</h3>
      <FormError error={records.error} />
      <DataTable
        label={`Consumptions of ${org.name}`}
        columns={['Time', { label: 'Amount', num: true }, 'Description', 'Refund']}
        rows={records.data?.items}
        busy={records.isPlaceholderData}
        empty="No consumption records."
      >
        {(r) => (
          <tr key={r.id}>
            <td>{formatTime(r.createdAt)}</td>
            <td className="num">{formatMoney(r.amount, currency)}</td>
            <td>{r.description ?? ''}</td>
            <td>{refunded.has(r.id) ? 'refunded' : <RefundForm record={r} organizationId={org.id} />}</td>
          </tr>
        )}
      </DataTable>
      {records.data ? <Pager page={page} pageSize={10} total={records.data.total} onPage={setPage} /> : null}
    </>
  );
}

export function WalletsAdminPage() {
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const [page, setPage] = useState(1);
  const [chosenId, setChosen] = useState<string>();
  const orgs = useQuery({
    queryKey: ['admin-organizations', applied, page],
    queryFn: () =>
      api<CatalogPage<Org>>('/api/v1/admin/organizations', { query: { search: applied, page, pageSize: 10 } }),
    placeholderData: keepPreviousData,
  });
  const chosen = orgs.data?.items.find((o) => o.id === chosenId);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setApplied(search.trim());
    setPage(1);
  };
  return (
    <Page title="Recharges and refunds">
      <PlatformTabs />
      <search>
        <form className="row" onSubmit={submit} aria-label="Organization search">
          <Field label="Find organizations">
            {(p) => <input {...p} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />}
          </Field>
          <button type="submit">Search</button>
        </form>
      </search>
      <FormError error={orgs.error} />
      <DataTable
        label="Organizations"
        columns={[
          'Organization',
          { label: 'Members', num: true },
          { label: 'Balance', num: true },
          { label: 'Held', num: true },
          'Created',
          { label: 'Choose', hidden: true },
        ]}
        rows={orgs.data?.items}
        busy={orgs.isPlaceholderData}
        empty="No organization matches."
      >
        {(o) => (
          <tr key={o.id}>
            <td>{o.name}</td>
            <td className="num">{formatCount(o.memberCount)}</td>
            <td className="num">{formatMoney(o.wallet?.balance, o.wallet?.currency)}</td>
            <td className="num">{formatMoney(o.wallet?.frozenAmount, o.wallet?.currency)}</td>
            <td>{formatTime(o.createdAt)}</td>
            <td>
              <button type="button" aria-pressed={o.id === chosenId} onClick={() => setChosen(o.id)}>
                Manage {o.name}
              </button>
            </td>
          </tr>
        )}
      </DataTable>
      {orgs.data ? (
        <Pager page={orgs.data.page} pageSize={orgs.data.pageSize} total={orgs.data.total} onPage={setPage} />
      ) : null}
      {chosen ? (
        <section className="panel" aria-label={`Wallet of ${chosen.name}`}>
          <h2>{chosen.name}</h2>
          <p>Balance: {formatMoney(chosen.wallet?.balance, chosen.wallet?.currency)}</p>
          <RechargeForm organizationId={chosen.id} label={`Recharge ${chosen.name}`} />
          <Consumptions org={chosen} />
        </section>
      ) : null}
    </Page>
  );
}
