// Judges patterns with the ReDoS analyser recheck (docs/security-review.md, "The regex sweep"), on as many worker
// threads as the machine has cores (at most 4): about a second of CPU per pattern, so the sweep stays within seconds.
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

/** The verdict of each distinct pattern, keyed by `patternKey`. */
export async function analyse(patterns: Pattern[]): Promise<Map<string, Verdict>> {
  const queue = [...new Map(patterns.map((p) => [patternKey(p), p])).values()];
  const verdicts = new Map<string, Verdict>();
  const threads = Math.max(1, Math.min(4, availableParallelism(), queue.length));
  const workers = Array.from(
    { length: threads },
    () => new Worker(new URL('./regex-analyser-worker.mjs', import.meta.url)),
  );
  try {
    await Promise.all(
      workers.map(async (worker) => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const pattern = next;
          const verdict = await new Promise<Verdict>((resolve, reject) => {
            worker.once('message', resolve);
            worker.once('error', reject);
            worker.postMessage({ id: patternKey(pattern), ...pattern });
          });
          worker.removeAllListeners('error');
          verdicts.set(patternKey(pattern), verdict);
        }
      }),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return verdicts;
}
