// Invite tokens of the organization (Admins): issue one (its link shown once), see every token's use, revoke.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, apiData, type Envelope } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatCount, formatTime } from '../../format.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { ShownOnce } from '../../ui/copy-button.js';
import { DataTable } from '../../ui/data-table.js';
import { Field } from '../../ui/field.js';
import { FormError } from '../../ui/status.js';
import { type InviteRole, RoleField } from './role-field.js';

export type InviteToken = {
  id: string;
  description?: string;
  role: 'Admin' | 'Member';
  email?: string;
  maxUsageCount: number;
  usageCount: number;
  expiresAt: string;
  revokedAt?: string;
  createdAt: string;
};

/** An invite someone may still use: not revoked, not used up, not expired. */
export const isOpenInvite = (t: InviteToken, now: number) =>
  !t.revokedAt && t.usageCount < t.maxUsageCount && Date.parse(t.expiresAt) > now;

export const joinLink = (token: string) => `${window.location.origin}/join/${token}`;

/** Issues an invite token (`email` binds it to that address); the list of tokens then shows it. */
export function useIssueInvite(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: {
      role: InviteRole;
      maxUsageCount?: number;
      expiresAt?: string;
      description?: string;
      email?: string;
    }) =>
      apiData<InviteToken & { token: string; inviteUrl: string }>('/api/organization/invite-tokens', {
        method: 'POST',
        organizationId,
        body,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['invite-tokens', organizationId] }),
  });
}

function IssueForm({ organizationId }: { organizationId: string }) {
  const [role, setRole] = useState<InviteRole>('Member');
  const [uses, setUses] = useState('1');
  const [days, setDays] = useState('7');
  const [description, setDescription] = useState('');
  const issue = useIssueInvite(organizationId);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    issue.mutate({
      role,
      maxUsageCount: Number(uses),
      expiresAt: new Date(Date.now() + Number(days) * 86_400_000).toISOString(),
      ...(description.trim() ? { description } : {}),
    });
  };
  return (
    <>
      <form className="row" onSubmit={submit} aria-label="Issue an invite token">
        <RoleField value={role} onChange={setRole} />
        <Field label="Uses">
          {(p) => <input {...p} type="number" min={1} value={uses} onChange={(e) => setUses(e.target.value)} />}
        </Field>
        <Field label="Valid for (days)">
          {(p) => <input {...p} type="number" min={1} value={days} onChange={(e) => setDays(e.target.value)} />}
        </Field>
        <Field label="Description">
          {(p) => <input {...p} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        <button type="submit" disabled={issue.isPending}>
          Issue invite
        </button>
      </form>
      <FormError error={issue.error} />
      {issue.data ? (
        <ShownOnce label="Invite link" value={joinLink(issue.data.token)} onDone={() => issue.reset()} />
      ) : null}
    </>
  );
}

export function InviteTokens({ organizationId }: { organizationId: string }) {
  const client = useQueryClient();
  const tokens = useQuery({
    queryKey: ['invite-tokens', organizationId],
    queryFn: () => api<Envelope<InviteToken[]>>('/api/organization/invite-tokens', { organizationId }),
  });
  const revoke = useMutation({
    mutationFn: (id: string) =>
      apiData(apiPath`/api/organization/invite-tokens/${id}`, { method: 'DELETE', organizationId }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['invite-tokens', organizationId] }),
  });
  return (
    <section className="panel">
      <h2>Invite tokens</h2>
      <IssueForm organizationId={organizationId} />
      <FormError error={tokens.error ?? revoke.error} />
      <DataTable
        label="Invite tokens"
        columns={['Role', 'For', 'Used', 'Expires', 'State']}
        rows={tokens.data?.data}
        empty="No invite tokens."
      >
        {(t) => (
          <tr key={t.id}>
            <td>{t.role}</td>
            <td>{t.email ?? t.description ?? '—'}</td>
            <td>
              {formatCount(t.usageCount)} of {formatCount(t.maxUsageCount)}
            </td>
            <td>{formatTime(t.expiresAt)}</td>
            <td>
              {t.revokedAt ? (
                'revoked'
              ) : t.usageCount >= t.maxUsageCount ? (
                'used up'
              ) : Date.parse(t.expiresAt) <= Date.now() ? (
                'expired'
              ) : (
                <ConfirmButton
                  label="Revoke"
                  confirmLabel="Revoke for good"
                  disabled={revoke.isPending}
                  onConfirm={() => revoke.mutate(t.id)}
                />
              )}
            </td>
          </tr>
        )}
      </DataTable>
    </section>
  );
}
