// How the console writes numbers, money and times.
const integer = new Intl.NumberFormat('en-US');
const moneyFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 });

export const formatCount = (n: number | undefined | null) => (n === undefined || n === null ? '—' : integer.format(n));

/** A count and its noun, singular for exactly one: "1 file", "2 files", "1,024 entries" (`many` when not `one` + s). */
export const formatCountOf = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** An amount without its currency, as formatMoney writes it: "10.00", "0.000214". */
export const formatAmount = (amount: number) => moneyFormat.format(amount);

export const formatMoney = (amount: number | undefined | null, currency = 'USD') =>
  amount === undefined || amount === null ? '—' : `${formatAmount(amount)} ${currency}`;

export function formatTime(value: string | undefined | null): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : `${date.toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}

export const formatDay = (value: string) => value.slice(0, 10);

export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
