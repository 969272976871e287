// The PostgreSQL pool's checkout timeout (a pool that stays busy answers 503 instead of hanging requests), judged only
// after this process has read what PostgreSQL sent (shared/time/reply-first-timer.ts): with node-postgres's own
// timer, a stall of the process's loop failed a checkout whose client had been freed meanwhile, as "timeout exceeded
// when trying to connect", and its request with 503. node-postgres keeps its own timers, set far longer, to clear
// what a caller gave up on: a connection attempt that never completes, a place in the queue of waiting checkouts.
import pg from 'pg';
import { setReplyFirstTimeout } from '../time/reply-first-timer.js';

/** node-postgres's own limit on a connection attempt and a waiting checkout, once the caller has had its answer. */
const ABANDONED_CHECKOUT_MS = 30_000;

type CheckoutCallback = (
  err: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

export class ReplyFirstPool extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    private readonly checkoutTimeoutMs: number,
  ) {
    super({ ...config, connectionTimeoutMillis: Math.max(ABANDONED_CHECKOUT_MS, checkoutTimeoutMs * 2) });
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: CheckoutCallback): void;
  override connect(callback?: CheckoutCallback): Promise<pg.PoolClient> | undefined {
    const checkout = this.checkout();
    if (!callback) return checkout;
    checkout.then(
      (client) => callback(undefined, client, (release) => client.release(release as Error | boolean | undefined)),
      (err: Error) => callback(err, undefined, () => {}),
    );
    return undefined;
  }

  private checkout(): Promise<pg.PoolClient> {
    return new Promise((resolve, reject) => {
      let answered = false;
      const timer = setReplyFirstTimeout(() => {
        if (answered) return;
        answered = true;
        reject(new Error('timeout exceeded when trying to connect'));
      }, this.checkoutTimeoutMs);
      timer.unref();
      super.connect().then(
        (client) => {
          // A client that comes after the caller gave up goes straight back to the pool.
          if (answered) return client.release();
          answered = true;
          clearTimeout(timer);
          resolve(client);
        },
        (err: Error) => {
          if (answered) return;
          answered = true;
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  }
}
