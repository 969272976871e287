// The Overview's people: how many members, and for the organization's Admins (who alone read invites) how many
// invites are still open: not revoked, not used up, not expired.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, type Envelope } from '../../api/http.js';
import { formatCountOf } from '../../format.js';
import { FormError, Loading } from '../../ui/status.js';
import { type InviteToken, isOpenInvite } from './invite-tokens.js';

const useMemberCount = (organizationId: string) =>
  useQuery({
    queryKey: ['members', organizationId, 'count'],
    queryFn: () => api<Envelope<unknown[]>>('/api/organization/members', { organizationId, query: { size: 1 } }),
  });

function OpenInvites({ organizationId }: { organizationId: string }) {
  const tokens = useQuery({
    queryKey: ['invite-tokens', organizationId],
    queryFn: () => api<Envelope<InviteToken[]>>('/api/organization/invite-tokens', { organizationId }),
  });
  if (!tokens.data) return <FormError error={tokens.error} />;
  const open = tokens.data.data.filter((t) => isOpenInvite(t, Date.now())).length;
  return <li data-testid="overview-invites">{formatCountOf(open, 'open invite')}</li>;
}

export function OverviewMembers({ organizationId, isAdmin }: { organizationId: string; isAdmin: boolean }) {
  const members = useMemberCount(organizationId);
  return (
    <section className="panel" aria-labelledby="overview-members">
      <h2 id="overview-members">
        <Link to="/org/members">Members</Link>
      </h2>
      {members.isPending ? <Loading /> : null}
      <FormError error={members.error} />
      <ul className="plain">
        {members.data ? (
          <li data-testid="overview-member-count">{formatCountOf(members.data.total ?? 0, 'member')}</li>
        ) : null}
        {isAdmin ? <OpenInvites organizationId={organizationId} /> : null}
      </ul>
    </section>
  );
}
