// The organization at a glance (the Overview tab): what is still missing, the wallet, the projects, the members.
// Each part reads only what the viewer's role may read, and offers only what it may do.
import { OverviewMembers } from './overview-members.js';
import { OverviewNextSteps } from './overview-next-steps.js';
import { OverviewProjects } from './overview-projects.js';
import { OverviewWallet } from './overview-wallet.js';

export function OrganizationOverview({ organizationId, isAdmin }: { organizationId: string; isAdmin: boolean }) {
  return (
    <>
      <OverviewNextSteps organizationId={organizationId} isAdmin={isAdmin} />
      <OverviewWallet organizationId={organizationId} isAdmin={isAdmin} />
      <div className="overview-columns">
        <OverviewProjects organizationId={organizationId} />
        <OverviewMembers organizationId={organizationId} isAdmin={isAdmin} />
      </div>
    </>
  );
}
