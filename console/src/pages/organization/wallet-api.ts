// The wallet of the current organization as the pages read it.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, apiData, type Envelope } from '../../api/http.js';

export type Wallet = {
  organizationId: string;
  balance: number;
  frozenAmount: number;
  currency: string;
  isActive: boolean;
};

export type WalletRecord = {
  id: string;
  type: 'Recharge' | 'Consume' | 'Refund';
  amount: number;
  previousBalance: number;
  currentBalance: number;
  description?: string;
  requestLogId?: string;
  refundOf?: string;
  /** The top-up code a redemption's Recharge took (its id, never the code). */
  topUpCodeId?: string;
  /** The project and key of a Consume record's request (and its Refund's); a key's name only to who may see it. */
  projectId?: string;
  projectName?: string;
  apiKeyId?: string;
  apiKeyName?: string;
  createdAt: string;
};

export type RecordFilter = { type?: string; from?: string; to?: string; page: number; size: number };

export type BalanceHistory = {
  currency: string;
  interval: 'hour' | 'day';
  from: string;
  to: string;
  openingBalance: number;
  points: { at: string; balance: number }[];
};

/** What the period's gateway requests took from the wallet, what refunds gave back, and how many requests it had. */
export type PeriodSpending = { from: string; spent: number; refunded: number; requests: number };

export type WalletSpending = { currency: string; today: PeriodSpending; month: PeriodSpending };

/** The balance alert settings (organization Admins only: they carry the webhook signing secret). */
export type AlertSettings = {
  emailAlertEnabled: boolean;
  maxDailyAlerts: number;
  lastAlertTime?: string;
  webhookUrl?: string;
  customHeaders?: Record<string, string>;
  messageTemplate: string;
  thresholds: number[];
  webhookSecret?: string;
  previousWebhookSecretUntil?: string;
};

export const walletKeys = {
  all: (organizationId: string) => ['wallet', organizationId] as const,
};

export const useWallet = (organizationId: string) =>
  useQuery({
    queryKey: [...walletKeys.all(organizationId), 'balance'],
    queryFn: () => apiData<Wallet>('/api/organization/wallet', { organizationId }),
    refetchInterval: 15_000,
  });

export const useRecords = (organizationId: string, filter: RecordFilter) =>
  useQuery({
    queryKey: [...walletKeys.all(organizationId), 'records', filter],
    queryFn: () => api<Envelope<WalletRecord[]>>('/api/organization/wallet/records', { organizationId, query: filter }),
    placeholderData: keepPreviousData,
  });

export const useBalanceHistory = (organizationId: string, days: number, interval: 'hour' | 'day') =>
  useQuery({
    queryKey: [...walletKeys.all(organizationId), 'history', days, interval],
    queryFn: () =>
      apiData<BalanceHistory>('/api/organization/wallet/balance-history', {
        organizationId,
        query: { days, interval },
      }),
  });

export const useSpending = (organizationId: string) =>
  useQuery({
    queryKey: [...walletKeys.all(organizationId), 'spending'],
    queryFn: () => apiData<WalletSpending>('/api/organization/wallet/spending', { organizationId }),
    refetchInterval: 15_000,
  });

/** Only for an organization Admin: the API answers 403 to anyone else. */
export const useAlertSettings = (organizationId: string, enabled = true) =>
  useQuery({
    queryKey: ['alert-settings', organizationId],
    queryFn: () => apiData<AlertSettings>('/api/organization/wallet/alerts', { organizationId }),
    enabled,
  });
