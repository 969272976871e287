// Members of the current organization (Admins change roles and remove people; anyone may leave), and for Admins
// the invite by e-mail, the invite tokens and the CSV bulk invite.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiData } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatTime } from '../../format.js';
import { ORGANIZATIONS_KEY } from '../../session/organization.js';
import { useMe } from '../../session/session.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { DataTable } from '../../ui/data-table.js';
import { Page } from '../../ui/page.js';
import { Pager } from '../../ui/pager.js';
import { FormError, Loading, Notice } from '../../ui/status.js';
import { BulkInvite } from './bulk-invite.js';
import { EmailInvite } from './email-invite.js';
import { InviteTokens } from './invite-tokens.js';
import { MemberSearchField, searchHint, useMemberSearch } from './member-search.js';
import { OrgTabs, WithOrganization } from './org-tabs.js';

const PAGE_SIZE = 20;

function Members({ organizationId, isAdmin }: { organizationId: string; isAdmin: boolean }) {
  const client = useQueryClient();
  const me = useMe().data;
  const search = useMemberSearch(organizationId, PAGE_SIZE, 'page');
  const members = search.list;
  const change = useMutation({
    mutationFn: (c: { userId: string; role?: string }) =>
      c.role
        ? apiData(apiPath`/api/organization/members/${c.userId}/role`, {
            method: 'PUT',
            organizationId,
            body: { role: c.role },
          })
        : apiData(apiPath`/api/organization/members/${c.userId}`, { method: 'DELETE', organizationId }),
    onSuccess: (_, c) => {
      void client.invalidateQueries({ queryKey: ['members', organizationId] });
      // Leaving takes the organization out of the switcher (the console then acts in the next one, if any).
      if (c.userId === me?.id && !c.role) void client.invalidateQueries({ queryKey: ORGANIZATIONS_KEY });
    },
  });
  if (members.isPending) return <Loading />;
  return (
    <section className="panel">
      <h2>Members</h2>
      <search>
        <MemberSearchField
          text={search.text}
          onText={search.setText}
          hint={searchHint(search, members.data?.total ?? 0, 'Any part of a name or e-mail address.')}
        />
      </search>
      <FormError error={members.error ?? change.error} />
      {change.isSuccess && change.variables.role ? (
        <Notice>
          {members.data?.data.find((m) => m.userId === change.variables.userId)?.name ?? 'The member'} is now{' '}
          {change.variables.role === 'Admin' ? 'an Admin' : 'a Member'}.
        </Notice>
      ) : null}
      <DataTable
        label="Members"
        columns={['Name', 'E-mail', 'Role', 'Joined', { label: 'Actions', hidden: true }]}
        rows={members.data?.data}
        total={members.data?.total}
        busy={!search.settled}
        empty={search.q ? `No member matches "${search.q}".` : 'No members.'}
      >
        {(m) => (
          <tr key={m.userId}>
            <td>{m.name}</td>
            <td className="email">{m.email}</td>
            <td>
              {isAdmin ? (
                <select
                  aria-label={`Role of ${m.email}`}
                  value={m.role}
                  onChange={(e) => change.mutate({ userId: m.userId, role: e.target.value })}
                >
                  <option>Admin</option>
                  <option>Member</option>
                </select>
              ) : (
                m.role
              )}
            </td>
            <td>{formatTime(m.joinedAt)}</td>
            <td>
              {m.userId === me?.id ? (
                <ConfirmButton
                  label="Leave"
                  confirmLabel="Leave this organization"
                  keepLabel="Stay"
                  disabled={change.isPending}
                  onConfirm={() => change.mutate({ userId: m.userId })}
                />
              ) : isAdmin ? (
                <ConfirmButton
                  label="Remove"
                  confirmLabel={`Remove ${m.name}`}
                  disabled={change.isPending}
                  onConfirm={() => change.mutate({ userId: m.userId })}
                />
              ) : null}
            </td>
          </tr>
        )}
      </DataTable>
      <Pager page={search.page} pageSize={PAGE_SIZE} total={members.data?.total} onPage={search.setPage} />
    </section>
  );
}

export function MembersPage() {
  return (
    <Page title="Members and invites">
      <OrgTabs />
      <WithOrganization>
        {(org) => (
          <>
            <Members organizationId={org.id} isAdmin={org.isAdmin} />
            {org.isAdmin ? (
              <>
                <EmailInvite organizationId={org.id} />
                <InviteTokens organizationId={org.id} />
                <BulkInvite organizationId={org.id} />
              </>
            ) : null}
          </>
        )}
      </WithOrganization>
    </Page>
  );
}
