import { createExtractionPool, type ExtractionLimits, PageTooComplex } from '../../shared/web/extraction-pool.js';
import { waitUntil } from '../support/harness.js';
import { articleHtml, manyAttributes, nestedDivs } from '../support/hostile-html.js';

const DEFAULTS: ExtractionLimits = {
  threads: 2,
  timeoutMs: 5_000,
  heapMb: 256,
  maxElements: 50_000,
  maxAttributes: 100_000,
  maxDepth: 256,
};
const bytes = (html: string) => new TextEncoder().encode(html);

describe('the extraction pool', () => {
  it('reads ordinary pages, and refuses deep or attribute-flooded ones by the pre-scan without losing a thread', async () => {
    const pool = createExtractionPool(DEFAULTS);
    try {
      const results = await Promise.allSettled([
        pool.extract(bytes(nestedDivs(5_000)), 'text/html'),
        pool.extract(bytes(articleHtml('First')), 'text/html'),
        pool.extract(bytes(nestedDivs(20_000)), 'text/html'),
        pool.extract(bytes(manyAttributes(300_000)), 'text/html'),
        pool.extract(bytes(articleHtml('Second')), 'text/html; charset=utf-8'),
        pool.extract(bytes(nestedDivs(200)), 'text/html'),
      ]);
      const reasons = results.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : r.value.title));
      expect(reasons).toEqual([
        'Page too complex to read: more than 256 levels of nested elements.',
        'First',
        'Page too complex to read: more than 256 levels of nested elements.',
        'Page too complex to read: more than 100000 attributes.',
        'Second',
        'deep',
      ]);
      expect(results.every((r) => r.status === 'fulfilled' || r.reason instanceof PageTooComplex)).toBe(true);
      expect(pool.threadsStarted()).toBe(2);
    } finally {
      await pool.close();
    }
  }, 30_000);

  it('stops a page that runs past its wall time, replaces the thread, and the pages beside it complete', async () => {
    // Depth 250 is within the depth limit but costs Readability about half a second (cubic in depth). A wall time of
    // 100 ms is short for a machine busy with other work: an attempt where an ordinary page (a warm-up, which also
    // loads and compiles the reader, or the page beside the slow one) ran out of time too is made again, up to three.
    const outOfTime = (r: PromiseSettledResult<unknown>) => r.status === 'rejected';
    for (let attempt = 1; attempt <= 3; attempt++) {
      const pool = createExtractionPool({ ...DEFAULTS, timeoutMs: 100 });
      try {
        // One page on each thread first, so the page beside the slow one goes to the other, warm thread.
        const warmUp = await Promise.allSettled(
          Array.from({ length: DEFAULTS.threads }, (_, i) =>
            pool.extract(bytes(articleHtml(`Warm-up ${i}`)), 'text/html'),
          ),
        );
        if (warmUp.some(outOfTime) && attempt < 3) continue;
        const before = pool.threadsStarted();
        const [slow, ordinary] = await Promise.allSettled([
          pool.extract(bytes(nestedDivs(250)), 'text/html'),
          pool.extract(bytes(articleHtml('Beside')), 'text/html'),
        ]);
        if (outOfTime(ordinary) && attempt < 3) continue;
        expect(slow.status === 'rejected' && (slow.reason as Error).message).toBe(
          'Page too complex to read: reading it took longer than 100 ms.',
        );
        expect(ordinary.status === 'fulfilled' && ordinary.value.title).toBe('Beside');
        await waitUntil(async () => pool.threadsStarted() === before + 1, 10_000, 20);
        await expect(pool.extract(bytes(articleHtml('After')), 'text/html')).resolves.toMatchObject({ title: 'After' });
        expect(pool.threadsStarted()).toBe(before + 1);
        return;
      } finally {
        await pool.close();
      }
    }
  }, 60_000);

  it('stops a page that needs more heap than a thread has, replaces the thread, and keeps reading', async () => {
    // The pre-scan's attribute limit switched off, so the DOM of 300,000 attributes is built and passes 48 MB.
    const pool = createExtractionPool({
      ...DEFAULTS,
      threads: 1,
      heapMb: 48,
      maxAttributes: 10_000_000,
      timeoutMs: 60_000,
    });
    try {
      await pool.extract(bytes(articleHtml('Warm-up')), 'text/html');
      await expect(pool.extract(bytes(manyAttributes(300_000)), 'text/html')).rejects.toThrow(
        'Page too complex to read: reading it needed more than 48 MB.',
      );
      await expect(pool.extract(bytes(articleHtml('After')), 'text/html')).resolves.toMatchObject({ title: 'After' });
      await waitUntil(async () => pool.threadsStarted() === 2, 10_000, 20);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
