// The organization area's sub-navigation; Admin-only pages only for the organization's Admins.
import { NavLink } from 'react-router';
import { useOrganization } from '../../session/organization.js';
import { Tabs } from '../../ui/page.js';

export function OrgTabs() {
  const { current } = useOrganization();
  return (
    <Tabs label="Organization">
      <NavLink end to="/org">
        Overview
      </NavLink>
      <NavLink to="/org/members">Members and invites</NavLink>
      <NavLink to="/org/projects">Projects</NavLink>
      <NavLink to="/org/templates">Templates</NavLink>
      <NavLink to="/org/wallet">Wallet</NavLink>
      {current?.role === 'Admin' ? <NavLink to="/org/alerts">Balance alerts</NavLink> : null}
    </Tabs>
  );
}

/** Renders its children only with a current organization; otherwise says how to get one. */
export function WithOrganization({
  children,
}: {
  children: (org: { id: string; name: string; isAdmin: boolean }) => React.ReactNode;
}) {
  const { current, isPending } = useOrganization();
  if (isPending) return null;
  if (!current) {
    return (
      <p>
        You are not a member of an organization yet. <NavLink to="/org">Create one</NavLink> or accept an invite.
      </p>
    );
  }
  return <>{children({ id: current.id, name: current.name, isAdmin: current.role === 'Admin' })}</>;
}
