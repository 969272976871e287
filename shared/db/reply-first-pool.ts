// The PostgreSQL pool's checkout timeout (a pool that stays busy answers 503 instead of hanging requests), judged only
// after this process has read what PostgreSQL sent. node-postgres fails a checkout from a timer, and after a stall of
// this process's own event loop (a long garbage collection, a core taken by other work) Node runs expired timers
// before the poll phase that reads the sockets: a checkout whose client PostgreSQL had freed during the stall failed
// as "timeout exceeded when trying to connect", and its request with 503, though the pool was never full that long.
// Here the timer hands its verdict to setImmediate, which runs after that poll phase, as the API's Redis command
// timeout does (shared/redis/reply-first-timeout.ts). node-postgres keeps its own timers, set far longer, to clear
// what a caller gave up on: a connection attempt that never completes, a place in the queue of waiting checkouts.
import pg from 'pg';

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
      const timer = setTimeout(
        () =>
          setImmediate(() => {
            if (answered) return;
            answered = true;
            reject(new Error('timeout exceeded when trying to connect'));
          }),
        this.checkoutTimeoutMs,
      );
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
