// The share of its core a password hashing thread may take: after each key it rests, before starting the next,
// for as long as keeps its work at `cpuShare` of the time (0.5: a key of 40 ms, then at least 40 ms of rest). The
// rest comes before the next key, not after this one, so the login whose key is done is answered at once.

export type HashingPace = {
  /** How long to wait, at `now`, before the next key may start (0: at once). */
  restBefore(now: number): number;
  /** Records a key derived from `started` to `ended`; answers the thread's time per key, its rest included. */
  derived(started: number, ended: number): number;
};

export function hashingPace(cpuShare: number): HashingPace {
  if (!(cpuShare > 0 && cpuShare <= 1)) throw new RangeError(`cpuShare must be in (0, 1], not ${cpuShare}`);
  let restUntil = Number.NEGATIVE_INFINITY;
  return {
    restBefore: (now) => Math.max(0, restUntil - now),
    derived(started, ended) {
      const took = ended - started;
      restUntil = ended + took * (1 / cpuShare - 1);
      return took / cpuShare;
    },
  };
}
