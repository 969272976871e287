// The Overview's wallet figures: available, held by requests in flight, spent this month and today (any member); for
// the organization's Admins, whether balance alerts are set and every threshold they fire at.
import { Link } from 'react-router';
import { formatAmount, formatCountOf, formatMoney } from '../../format.js';
import { FormError, Loading } from '../../ui/status.js';
import { type AlertSettings, type PeriodSpending, useAlertSettings, useSpending, useWallet } from './wallet-api.js';

/** "2.50 USD", and what refunds gave back when they did: "2.50 USD (0.25 USD refunded)". */
function Spent({ period, currency }: { period: PeriodSpending; currency: string }) {
  return (
    <>
      {formatMoney(period.spent, currency)}
      {period.refunded > 0 ? (
        <span className="stat-note"> ({formatMoney(period.refunded, currency)} refunded)</span>
      ) : null}
      <span className="stat-note">{formatCountOf(period.requests, 'request')}</span>
    </>
  );
}

/**
 * Alerts are set when a channel is on and there is a threshold to cross: every threshold, highest first ("e-mail,
 * below 10.00, 5.00 or 1.00 USD"), since the highest is the one the next spending crosses first (the lowest alone
 * read as if nothing would come before it).
 */
function alertsState(s: AlertSettings, currency: string): string {
  const channels = [s.emailAlertEnabled ? 'e-mail' : '', s.webhookUrl ? 'webhook' : ''].filter(Boolean);
  if (channels.length === 0 || s.thresholds.length === 0) return 'off';
  const amounts = [...new Set(s.thresholds)].sort((a, b) => b - a).map(formatAmount);
  const listed = amounts.length > 1 ? `${amounts.slice(0, -1).join(', ')} or ${amounts.at(-1)}` : amounts[0];
  return `${channels.join(' and ')}, below ${listed} ${currency}`;
}

function AlertsTile({ organizationId, currency }: { organizationId: string; currency: string }) {
  const settings = useAlertSettings(organizationId);
  return (
    <div>
      <dt>Balance alerts</dt>
      <dd data-testid="overview-alerts" className="stat-text">
        {settings.data ? (
          <Link to="/org/alerts">{alertsState(settings.data, currency)}</Link>
        ) : settings.isPending ? (
          '…'
        ) : (
          '—'
        )}
      </dd>
    </div>
  );
}

export function OverviewWallet({ organizationId, isAdmin }: { organizationId: string; isAdmin: boolean }) {
  const wallet = useWallet(organizationId);
  const spending = useSpending(organizationId);
  return (
    <section className="panel" aria-labelledby="overview-wallet">
      <h2 id="overview-wallet">
        <Link to="/org/wallet">Wallet</Link>
      </h2>
      {wallet.isPending || spending.isPending ? <Loading /> : null}
      <FormError error={wallet.error ?? spending.error} />
      {wallet.data && spending.data ? (
        <dl className="stat-grid">
          <div>
            <dt>Available balance</dt>
            <dd data-testid="overview-balance">{formatMoney(wallet.data.balance, wallet.data.currency)}</dd>
          </div>
          <div>
            <dt>Held by requests in flight</dt>
            <dd data-testid="overview-held">{formatMoney(wallet.data.frozenAmount, wallet.data.currency)}</dd>
          </div>
          <div>
            <dt>Spent this month (UTC)</dt>
            <dd data-testid="overview-month">
              <Spent period={spending.data.month} currency={spending.data.currency} />
            </dd>
          </div>
          <div>
            <dt>Spent today (UTC)</dt>
            <dd data-testid="overview-today">
              <Spent period={spending.data.today} currency={spending.data.currency} />
            </dd>
          </div>
          {isAdmin ? <AlertsTile organizationId={organizationId} currency={wallet.data.currency} /> : null}
        </dl>
      ) : null}
    </section>
  );
}
