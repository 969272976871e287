// What the organization still lacks before its first gateway call, each with the way to it that the viewer's role
// has: money in the wallet (an Admin redeems a top-up code, a platform Admin also recharges), a project (an Admin creates one), and an API key of the
// viewer's bound to one of its projects. Nothing is shown once all three are there.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useMe } from '../../session/session.js';
import { useApiKeys } from '../account/api-key-rows.js';
import { PROJECTS_PAGE_SIZE, useProjects } from './projects-api.js';
import { useWallet } from './wallet-api.js';

/** Whether the viewer holds a key bound to a project they may bind keys to: unknown (undefined) past one page. */
function useHasKey(organizationId: string, isAdmin: boolean) {
  // An Admin may bind a key to any project; a Member to their own (the API key form offers the same).
  const bindable = useProjects(organizationId, 1, !isAdmin);
  const keys = useApiKeys();
  if (!bindable.data || !keys.data) return { bindable: undefined, hasKey: undefined };
  const projects = bindable.data.data;
  if ((bindable.data.total ?? 0) > PROJECTS_PAGE_SIZE) return { bindable: projects, hasKey: undefined };
  const ids = new Set(projects.map((p) => p.id));
  return { bindable: projects, hasKey: keys.data.some((k) => k.projectId !== undefined && ids.has(k.projectId)) };
}

export function OverviewNextSteps({ organizationId, isAdmin }: { organizationId: string; isAdmin: boolean }) {
  const platformAdmin = Boolean(useMe().data?.isAdmin);
  const wallet = useWallet(organizationId);
  const projects = useProjects(organizationId);
  const { bindable, hasKey } = useHasKey(organizationId, isAdmin);
  const steps: { id: string; text: ReactNode }[] = [];
  if (wallet.data && wallet.data.balance <= 0) {
    // An organization Admin redeems a code on the Wallet page; a platform Admin recharges there; one can be both.
    const way =
      platformAdmin && isAdmin
        ? 'Recharge it, or redeem a top-up code, on the Wallet page'
        : platformAdmin
          ? 'Recharge it on the Wallet page'
          : isAdmin
            ? 'Redeem a top-up code on the Wallet page'
            : undefined;
    steps.push({
      id: 'money',
      text: way ? (
        <>
          The wallet is empty: gateway calls are refused until money comes in. <Link to="/org/wallet">{way}</Link>.
        </>
      ) : (
        <>The wallet is empty: gateway calls are refused until an Admin of the organization adds money.</>
      ),
    });
  }
  const noProject = projects.data?.total === 0;
  if (noProject) {
    steps.push({
      id: 'project',
      text: isAdmin ? (
        <>
          No project yet: gateway calls belong to a project. <Link to="/org/projects">Create a project</Link> (from a
          template it comes with its quota and an API key).
        </>
      ) : (
        <>No project yet: gateway calls belong to a project, and an Admin of the organization creates them.</>
      ),
    });
  } else if (hasKey === false && bindable) {
    const only = bindable.length === 1 ? bindable[0] : undefined;
    steps.push({
      id: 'key',
      text:
        bindable.length === 0 ? (
          <>
            No API key yet: you are in none of the organization's projects. Ask a project's Owner or an Admin to add you
            to one.
          </>
        ) : (
          <>
            No API key of yours for {only ? `"${only.name}"` : 'these projects'} yet.{' '}
            <Link to={only ? `/account/keys?project=${only.id}` : '/account/keys'}>Create an API key</Link> to call the
            gateway.
          </>
        ),
    });
  }
  if (steps.length === 0) return null;
  return (
    <section className="panel next-steps" aria-labelledby="overview-next">
      <h2 id="overview-next">Next steps</h2>
      <ol>
        {steps.map((s) => (
          <li key={s.id} data-testid={`next-${s.id}`}>
            {s.text}
          </li>
        ))}
      </ol>
    </section>
  );
}
