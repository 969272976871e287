// Runs one skill bundle review in a worker thread with a wall time and a heap limit: the review reads a Publisher's
// files, so what it costs is bounded here, whatever the parsing code does with hostile text.
import { Worker } from 'node:worker_threads';
import type { BundleReviewer } from '../../shared/catalog/skill-bundle-parse.js';
import type { SkillBundleReview } from '../../shared/skills/skill-bundle-review.js';

// The same extension as this module: .ts under tsx (development, tests; the thread needs tsx's loader too),
// .js once built. An eval'd bootstrap loads it either way (worker threads do not inherit tsx's loader).
const fromSources = import.meta.url.endsWith('.ts');
const threadUrl = new URL(`./review-thread${fromSources ? '.ts' : '.js'}`, import.meta.url);
const threadBootstrap = fromSources
  ? `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(threadUrl.href)}, ${JSON.stringify(import.meta.url)}))`
  : `import(${JSON.stringify(threadUrl.href)})`;

export type ReviewLimits = { timeoutMs: number; heapMb: number };

const refused = (problem: string): SkillBundleReview => ({ ok: false, problems: [problem] });

export const reviewInThread =
  (limits: ReviewLimits): BundleReviewer =>
  (zip) =>
    new Promise<SkillBundleReview>((resolve, reject) => {
      const thread = new Worker(threadBootstrap, {
        eval: true,
        workerData: { zip: new Uint8Array(zip) },
        resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
      });
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        settle();
        void thread.terminate();
      };
      const timer = setTimeout(
        () =>
          finish(() =>
            resolve(
              refused(
                `The bundle could not be reviewed within ${limits.timeoutMs / 1000} seconds: make SKILL.md and the manifest files smaller or simpler.`,
              ),
            ),
          ),
        limits.timeoutMs,
      );
      thread.once('message', (verdict: SkillBundleReview) => finish(() => resolve(verdict)));
      thread.once('error', (err: Error & { code?: string }) =>
        finish(() =>
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? resolve(refused('The bundle needs more memory to review than a review may use: make its files smaller.'))
            : reject(err),
        ),
      );
      thread.once('exit', (code) => {
        if (code !== 0) finish(() => reject(new Error(`bundle review thread exited with ${code}`)));
      });
    });
