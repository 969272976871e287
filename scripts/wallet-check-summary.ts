// The one line `npm run wallet:check` ends with: what it compared and how many differences it found, each count with
// its noun in the singular for one ("1 wallet", "1 ledger entry on its way").
export type WalletCheckCounts = {
  wallets: number;
  records: number;
  mirrors: number;
  entriesOnTheirWay: number;
  holds: number;
  differences: number;
};

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function walletCheckSummary(c: WalletCheckCounts): string {
  const verdict = c.differences === 0 ? 'OK' : 'FAILED';
  const parts = [
    counted(c.wallets, 'wallet', 'wallets'),
    counted(c.records, 'record', 'records'),
    counted(c.mirrors, 'mirror', 'mirrors'),
    counted(c.entriesOnTheirWay, 'ledger entry on its way', 'ledger entries on their way'),
    counted(c.holds, 'hold', 'holds'),
    counted(c.differences, 'difference', 'differences'),
  ];
  return `[wallet:check] ${verdict}: ${parts.join(', ')}`;
}
