// Judges patterns with the ReDoS analyser recheck (docs/security-review.md, "The regex sweep"), on as many worker
// threads as the machine has cores (at most 4): up to a few seconds of CPU per pattern, so the sweep needs them all.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export type Verdict = {
  status: 'safe' | 'vulnerable' | 'unknown';
  checker?: 'automaton' | 'fuzz';
  complexity?: string;
  /** recheck's attack string, as JavaScript (`'a'.repeat(54773) + '\x00'`), when vulnerable. */
  attack?: string;
  error?: string;
};

export type Pattern = { source: string; flags: string };

export const patternKey = ({ source, flags }: Pattern) => `/${source}/${flags}`;

/**
 * Starts the threads (each loads recheck, about a second, meanwhile the caller may find its patterns); `analyse`
 * then gives the verdict of each distinct pattern, keyed by `patternKey`, and stops them.
 */
export function startAnalyser(): { analyse: (patterns: Pattern[]) => Promise<Map<string, Verdict>> } {
  const threads = Math.max(1, Math.min(4, availableParallelism()));
  const workers = Array.from(
    { length: threads },
    () => new Worker(new URL('./regex-analyser-worker.mjs', import.meta.url)),
  );
  const judge = (worker: Worker, pattern: Pattern) =>
    new Promise<Verdict>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (verdict: Verdict) => {
        worker.off('error', reject);
        resolve(verdict);
      });
      worker.postMessage({ id: patternKey(pattern), ...pattern });
    });
  const analyse = async (patterns: Pattern[]) => {
    // Longest first: the long patterns are the slow ones, so no thread is left with one at the end.
    const queue = [...new Map(patterns.map((p) => [patternKey(p), p])).values()].sort(
      (a, b) => b.source.length - a.source.length,
    );
    const verdicts = new Map<string, Verdict>();
    try {
      await Promise.all(
        workers.map(async (worker) => {
          for (let next = queue.shift(); next; next = queue.shift())
            verdicts.set(patternKey(next), await judge(worker, next));
        }),
      );
    } finally {
      await Promise.all(workers.map((w) => w.terminate()));
    }
    return verdicts;
  };
  return { analyse };
}
