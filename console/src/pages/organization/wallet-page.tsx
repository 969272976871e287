// The organization's wallet: available balance and the amount held by requests in flight, the balance over time,
// the records; the organization's Admins redeem top-up codes here, and a platform Admin also recharges and refunds.
import { formatMoney } from '../../format.js';
import { useMe } from '../../session/session.js';
import { Page } from '../../ui/page.js';
import { FormError, Loading } from '../../ui/status.js';
import { BalanceChart } from './balance-chart.js';
import { OrgTabs, WithOrganization } from './org-tabs.js';
import { RechargeForm } from './recharge-form.js';
import { RecordsTable } from './records-table.js';
import { RedeemForm } from './redeem-form.js';
import { useWallet } from './wallet-api.js';

function Wallet({ organizationId, isOrgAdmin }: { organizationId: string; isOrgAdmin: boolean }) {
  const me = useMe().data;
  const wallet = useWallet(organizationId);
  if (wallet.isPending) return <Loading />;
  if (!wallet.data) return <FormError error={wallet.error} />;
  const w = wallet.data;
  return (
    <>
      <dl className="stat-grid">
        <div>
          <dt>Available balance</dt>
          <dd data-testid="balance">{formatMoney(w.balance, w.currency)}</dd>
        </div>
        <div>
          <dt>Held by requests in flight</dt>
          <dd data-testid="frozen">{formatMoney(w.frozenAmount, w.currency)}</dd>
        </div>
        <div>
          <dt>State</dt>
          <dd>{w.isActive ? 'active' : 'inactive'}</dd>
        </div>
      </dl>
      {isOrgAdmin ? (
        <section className="panel">
          <h2>Redeem a top-up code</h2>
          <RedeemForm organizationId={organizationId} currency={w.currency} />
        </section>
      ) : null}
      {me?.isAdmin ? (
        <section className="panel">
          <h2>Recharge (platform Admin)</h2>
          <RechargeForm organizationId={organizationId} />
        </section>
      ) : null}
      <BalanceChart organizationId={organizationId} currency={w.currency} />
      <RecordsTable organizationId={organizationId} currency={w.currency} canRefund={Boolean(me?.isAdmin)} />
    </>
  );
}

export function WalletPage() {
  return (
    <Page title="Wallet">
      <OrgTabs />
      <WithOrganization>{(org) => <Wallet organizationId={org.id} isOrgAdmin={org.isAdmin} />}</WithOrganization>
    </Page>
  );
}
