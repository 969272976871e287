// Group commit of a Lua step on one Redis connection: the requests that arrive while a call of the step is in flight
// wait for it and then leave together in the next call (one call, one reply for all), in arrival order; a lone
// request leaves at once (no timer), and a call leaves as soon as `maxWeight` waits. The script takes the parts one
// by one, each exactly as if alone. A failed call fails every request in it with the same error.
import type { Redis } from 'ioredis';

type Waiting<P, R> = { part: P; weight: number; resolve: (reply: R) => void; reject: (err: unknown) => void };

export type GroupCall<P, R> = (parts: P[]) => Promise<R[]>;

class Lane<P, R> {
  private waiting: Waiting<P, R>[] = [];
  private waitingWeight = 0;
  private inFlight = 0;

  constructor(
    private readonly call: GroupCall<P, R>,
    private readonly maxWeight: number,
    private readonly onIdle: () => void,
  ) {}

  submit(part: P, weight: number): Promise<R> {
    const reply = new Promise<R>((resolve, reject) => this.waiting.push({ part, weight, resolve, reject }));
    this.waitingWeight += weight;
    // Waiting longer would not make the next call larger once it is full.
    if (this.inFlight === 0 || this.waitingWeight >= this.maxWeight) this.send();
    return reply;
  }

  /** Sends what waits, at most `maxWeight` a call (a part is never split); all calls leave at once, in order. */
  private send(): void {
    const waiting = this.waiting;
    this.waiting = [];
    this.waitingWeight = 0;
    let next = 0;
    while (next < waiting.length) {
      const batch: Waiting<P, R>[] = [];
      let weight = 0;
      for (; next < waiting.length; next++) {
        const w = waiting[next] as Waiting<P, R>;
        if (batch.length > 0 && weight + w.weight > this.maxWeight) break;
        batch.push(w);
        weight += w.weight;
      }
      this.inFlight++;
      let replies: Promise<R[]>;
      try {
        replies = this.call(batch.map((w) => w.part));
      } catch (err) {
        replies = Promise.reject(err);
      }
      replies
        .then(
          (answers) => {
            batch.forEach((w, i) => {
              w.resolve(answers[i] as R);
            });
          },
          (err: unknown) => {
            for (const w of batch) w.reject(err);
          },
        )
        .finally(() => {
          this.inFlight--;
          if (this.inFlight > 0) return;
          if (this.waiting.length > 0) this.send();
          else this.onIdle();
        });
    }
  }
}

const lanes = new WeakMap<Redis, Map<string, Lane<unknown, unknown>>>();

/**
 * Submits one part to the lane `name` of this connection (created on first use, dropped when idle, so a lane per
 * organization costs nothing once its traffic stops). `makeCall` makes, for a new lane, what sends one call's parts
 * (the same name must always mean the same call); `weight` counts toward `maxWeight` (a part heavier goes alone).
 */
export function submitToGroup<P, R>(
  redis: Redis,
  name: string,
  makeCall: () => GroupCall<P, R>,
  maxWeight: number,
  part: P,
  weight = 1,
): Promise<R> {
  let byName = lanes.get(redis);
  if (!byName) {
    byName = new Map();
    lanes.set(redis, byName);
  }
  let lane = byName.get(name) as Lane<P, R> | undefined;
  if (!lane) {
    const named = byName;
    lane = new Lane<P, R>(makeCall(), maxWeight, () => named.delete(name));
    byName.set(name, lane as Lane<unknown, unknown>);
  }
  return lane.submit(part, weight);
}
