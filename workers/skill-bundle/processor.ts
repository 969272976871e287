// skill-bundle/parse: reviews the submitted version's bundle in a worker thread and records the verdict.
import { Worker } from 'node:worker_threads';
import { type BundleReviewer, parseSubmittedBundle } from '../../shared/catalog/skill-bundle-parse.js';
import type { SkillBundleReview } from '../../shared/skills/skill-bundle-review.js';
import { defineQueueWorker } from '../processor.js';

// The same extension as this module: .ts under tsx (development, tests; the thread needs tsx's loader too),
// .js once built. An eval'd bootstrap loads it either way (worker threads do not inherit tsx's loader).
const fromSources = import.meta.url.endsWith('.ts');
const threadUrl = new URL(`./review-thread${fromSources ? '.ts' : '.js'}`, import.meta.url);
const threadBootstrap = fromSources
  ? `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(threadUrl.href)}, ${JSON.stringify(import.meta.url)}))`
  : `import(${JSON.stringify(threadUrl.href)})`;

const reviewInThread: BundleReviewer = (zip) =>
  new Promise<SkillBundleReview>((resolve, reject) => {
    const thread = new Worker(threadBootstrap, { eval: true, workerData: { zip: new Uint8Array(zip) } });
    thread.once('message', (verdict: SkillBundleReview) => {
      resolve(verdict);
      void thread.terminate();
    });
    thread.once('error', reject);
    thread.once('exit', (code) => {
      if (code !== 0) reject(new Error(`bundle review thread exited with ${code}`));
    });
  });

export default defineQueueWorker(
  'skill-bundle',
  { parse: ({ itemId, versionId }, ctx) => parseSubmittedBundle(ctx, { itemId, versionId }, reviewInThread) },
  { concurrency: 2 },
);
