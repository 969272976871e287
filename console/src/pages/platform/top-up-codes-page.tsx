// Top-up codes for platform Admins: issue a batch (each code shown only in the answer that issues it, so here once),
// list every code by status, and revoke one nobody redeemed. Organization Admins redeem them on their wallet page.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  DEFAULT_CODE_LIFETIME_DAYS,
  MAX_CODE_LIFETIME_DAYS,
  MAX_CODES_PER_BATCH,
  type TopUpCodeStatus,
  topUpCodeStatuses,
} from '../../../../shared/wallet/top-up-code-rules.js';
import { api, type CatalogPage } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatMoney, formatTime } from '../../format.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { ShownOnce } from '../../ui/copy-button.js';
import { DataTable } from '../../ui/data-table.js';
import { type ControlProps, Field } from '../../ui/field.js';
import { Page } from '../../ui/page.js';
import { Pager } from '../../ui/pager.js';
import { FormError, Loading, StatusBadge } from '../../ui/status.js';
import { PlatformTabs } from './platform-tabs.js';

type TopUpCode = {
  id: string;
  batchId: string;
  codeHint: string;
  amount: number;
  currency: string;
  status: TopUpCodeStatus;
  description?: string;
  expiresAt: string;
  createdAt: string;
  revokedAt?: string;
  redeemedAt?: string;
  organizationId?: string;
  recordId?: string;
};
type IssuedCodes = { batchId: string; codes: (TopUpCode & { code: string })[] };

const CODES = ['admin-top-up-codes'] as const;
const PAGE_SIZE = 25;
const DAY_MS = 86_400_000;

/** A count from 1 to `max`, as the browser checks it before the API does. */
const WholeNumber = ({
  max,
  onChange,
  ...control
}: ControlProps & { max: number; value: string; onChange: (value: string) => void }) => (
  <input {...control} type="number" min={1} max={max} step={1} onChange={(e) => onChange(e.target.value)} />
);

function IssueForm() {
  const client = useQueryClient();
  const [amount, setAmount] = useState('');
  const [count, setCount] = useState('1');
  const [days, setDays] = useState(String(DEFAULT_CODE_LIFETIME_DAYS));
  const [description, setDescription] = useState('');
  const issue = useMutation({
    // The amount goes as typed (a decimal string): the API reads it exactly.
    mutationFn: () =>
      api<IssuedCodes>('/api/v1/admin/top-up-codes', {
        method: 'POST',
        body: {
          amount,
          count: Number(count),
          ...(days ? { expiresAt: new Date(Date.now() + Number(days) * DAY_MS).toISOString() } : {}),
          ...(description.trim() ? { description } : {}),
        },
      }),
    onSuccess: () => {
      setAmount('');
      setDescription('');
      void client.invalidateQueries({ queryKey: CODES });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    issue.mutate();
  };
  const issued = issue.data?.codes;
  const first = issued?.[0];
  return (
    <>
      <form className="row" onSubmit={submit} aria-label="Issue top-up codes">
        <Field label="Amount per code" hint="USD, up to 6 decimals.">
          {(p) => <input {...p} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />}
        </Field>
        <Field label="Number of codes" hint={`1–${MAX_CODES_PER_BATCH}.`}>
          {(p) => <WholeNumber {...p} max={MAX_CODES_PER_BATCH} value={count} onChange={setCount} />}
        </Field>
        <Field label="Valid for (days)" hint={`1–${MAX_CODE_LIFETIME_DAYS}; empty: ${DEFAULT_CODE_LIFETIME_DAYS}.`}>
          {(p) => <WholeNumber {...p} max={MAX_CODE_LIFETIME_DAYS} value={days} onChange={setDays} />}
        </Field>
        <Field label="Note" hint="The description of the Recharge a redemption writes.">
          {(p) => <input {...p} maxLength={200} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        <button type="submit" className="primary" disabled={issue.isPending}>
          Issue codes
        </button>
      </form>
      <FormError error={issue.error} />
      {issued && first ? (
        <ShownOnce
          label={`${issued.length} top-up code${issued.length > 1 ? 's' : ''} of ${formatMoney(first.amount, first.currency)} each, valid until ${formatTime(first.expiresAt)}`}
          value={issued.map((c) => c.code)}
          onDone={() => issue.reset()}
        />
      ) : null}
    </>
  );
}

function RevokeCode({ code }: { code: TopUpCode }) {
  const client = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => api<TopUpCode>(apiPath`/api/v1/admin/top-up-codes/${code.id}/revoke`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: CODES }),
  });
  return (
    <>
      <div className="row">
        <ConfirmButton
          label="Revoke"
          confirmLabel="Revoke for good"
          disabled={revoke.isPending}
          onConfirm={() => revoke.mutate()}
        />
      </div>
      <FormError error={revoke.error} />
    </>
  );
}

export function TopUpCodesPage() {
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const codes = useQuery({
    queryKey: [...CODES, status, page],
    queryFn: () =>
      api<CatalogPage<TopUpCode>>('/api/v1/admin/top-up-codes', {
        query: { page, pageSize: PAGE_SIZE, ...(status ? { status } : {}) },
      }),
    placeholderData: keepPreviousData,
  });
  return (
    <Page title="Top-up codes">
      <PlatformTabs />
      <section className="panel">
        <h2>Issue codes</h2>
        <p className="muted">
          Each code adds its amount to the wallet of the organization whose Admin redeems it, once. Codes are stored
          only as hashes: this page shows them once, right after issuing.
        </p>
        <IssueForm />
      </section>
      <label className="row">
        Status
        <select
          value={status}
          onChange={(e) => {
            setStatus(e.target.value);
            setPage(1);
          }}
        >
          <option value="">Any</option>
          {topUpCodeStatuses.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      {codes.isPending ? <Loading /> : null}
      <FormError error={codes.error} />
      <DataTable
        label="Top-up codes"
        columns={[
          'Code',
          { label: 'Amount', num: true },
          'Status',
          'Note',
          'Issued',
          'Expires',
          'Redeemed',
          { label: 'Revoke', hidden: true },
        ]}
        rows={codes.data?.items}
        total={codes.data?.total}
        busy={codes.isPlaceholderData}
        empty={status ? `No ${status} codes.` : 'No codes issued yet.'}
      >
        {(c) => (
          <tr key={c.id}>
            <td>
              <code>OTC-…{c.codeHint}</code>
            </td>
            <td className="num">{formatMoney(c.amount, c.currency)}</td>
            <td>
              <StatusBadge status={c.status} />
              {c.revokedAt ? <div className="muted">{formatTime(c.revokedAt)}</div> : null}
            </td>
            <td>{c.description ?? ''}</td>
            <td>{formatTime(c.createdAt)}</td>
            <td>{formatTime(c.expiresAt)}</td>
            <td>
              {c.redeemedAt ? (
                <>
                  {formatTime(c.redeemedAt)}
                  <div className="muted">
                    organization <code>{c.organizationId}</code>
                  </div>
                </>
              ) : null}
            </td>
            <td>{c.status === 'active' ? <RevokeCode code={c} /> : null}</td>
          </tr>
        )}
      </DataTable>
      {codes.data ? (
        <Pager page={codes.data.page} pageSize={codes.data.pageSize} total={codes.data.total} onPage={setPage} />
      ) : null}
    </Page>
  );
}
