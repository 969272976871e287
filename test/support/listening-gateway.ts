// A gateway on a real port for third-party clients, and the check every client test ends with: each paid call the
// upstream served was logged and billed exactly once, nothing stays reserved, and the ledger reconciles.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reconcileWallets } from '../../shared/wallet/reconciliation.js';
import { consumeRecords, type GatewayWorld, openGatewayWorld, requestLogsOf, walletOf } from './gateway.js';
import { waitUntil } from './harness.js';

export type ClientWorld = GatewayWorld & { baseURL: string; closeAll(): Promise<void> };

export async function openClientWorld(options: { balance?: string } = { balance: '100' }): Promise<ClientWorld> {
  const w = await openGatewayWorld(options);
  const server: Server = w.h.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...w,
    baseURL,
    async closeAll() {
      await new Promise((r) => server.close(r));
      await w.close();
    },
  };
}

/** Every upstream Messages call is one request log and (when it cost anything) one Consume record. */
export async function expectEveryCallBilledOnce(w: ClientWorld): Promise<void> {
  const settled = await waitUntil(async () => {
    const wallet = await walletOf(w.h, w.org);
    const logs = await requestLogsOf(w.h, w.projectId);
    return wallet.frozenAmount === 0 && logs.length === w.sim.state.counters.messages ? logs : undefined;
  });
  const paid = settled.filter((l) => l.costMicros > 0n);
  expect(paid.length).toBe(settled.filter((l) => l.status === 'succeeded').length);
  const records = await consumeRecords(w.h, w.org);
  expect(records).toHaveLength(paid.length);
  expect(new Set(records.map((r) => r.requestLogId))).toEqual(new Set(paid.map((l) => l.id)));
  expect((await reconcileWallets(w.h.ctx.db)).problems).toEqual([]);
}
