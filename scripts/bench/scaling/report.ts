// The scaling benchmark's tables (throughput per queue, where the time goes) and its headline figures, each as a
// ratio against the 1 API + 1 worker baseline of the same run.
import { reportHeadline } from '../headline.js';
import type { Phase } from './resource-usage.js';

export type ScalingRow = {
  apis: number;
  workers: number;
  messages: Phase;
  telemetry: Phase;
  webFetch: Phase;
  video: { onTime: number; gaps: number; cpu: Record<string, number> };
  connections: number;
};

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const ratio = (v: number, b: number) => (b > 0 ? `×${(v / b).toFixed(2)}` : '');

export function printScalingReport(rows: ScalingRow[]): void {
  const base = rows[0] as ScalingRow;
  console.log(
    '\nThroughput per queue (2-core machine shared with other work: absolute figures are low and noisy, ratios flatten early)',
  );
  console.log(
    'processes            │ gateway req/s      │ telemetry ev/s     │ web-fetch pages/s  │ video polls on time │ PG conns',
  );
  for (const r of rows) {
    const cell = (v: number, b: number) => `${v.toFixed(0).padStart(6)} ${ratio(v, b).padEnd(6)}`.padEnd(18);
    console.log(
      `${`${r.apis} API + ${r.workers} worker`.padEnd(20)} │ ${cell(r.messages.rate, base.messages.rate)} │ ${cell(r.telemetry.rate, base.telemetry.rate)} │ ${cell(r.webFetch.rate, base.webFetch.rate)} │ ${`${r.video.onTime}/${r.video.gaps}`.padEnd(19)} │ ${r.connections}`,
    );
  }
  console.log(
    '\nWhere the time goes (CPU share of one core per process kind during each load; Redis commands/s, PG tx/s)',
  );
  for (const r of rows) {
    for (const [name, p] of [
      ['gateway', r.messages],
      ['telemetry', r.telemetry],
      ['web-fetch', r.webFetch],
    ] as const) {
      const c = p.cpu;
      console.log(
        `${`${r.apis}A+${r.workers}W ${name}`.padEnd(18)} api ${pct(c.api ?? 0).padStart(5)}  worker ${pct(c.worker ?? 0).padStart(5)}  bench ${pct(c.bench ?? 0).padStart(5)}  redis ${pct(c.redis ?? 0).padStart(4)}  postgres ${pct(c.postgres ?? 0).padStart(5)}  │ redis ${p.redisPerS.toFixed(0).padStart(6)}/s (${(p.redisPerS / p.rate).toFixed(1)}/op)  pg ${p.pgTxPerS.toFixed(0).padStart(5)} tx/s (${(p.pgTxPerS / p.rate).toFixed(2)}/op)`,
      );
    }
    const c = r.video.cpu;
    console.log(
      `${`${r.apis}A+${r.workers}W video`.padEnd(18)} api ${pct(c.api ?? 0).padStart(5)}  worker ${pct(c.worker ?? 0).padStart(5)}  bench ${pct(c.bench ?? 0).padStart(5)}  redis ${pct(c.redis ?? 0).padStart(4)}  postgres ${pct(c.postgres ?? 0).padStart(5)}`,
    );
  }
  const best = (pick: (r: ScalingRow) => number) =>
    rows.slice(1).reduce((a, r) => (pick(r) > pick(a) ? r : a), rows[1] as ScalingRow);
  const twoApis = rows.find((r) => r.apis === 2) as ScalingRow;
  reportHeadline({
    figure: 'gateway req/s, 2 API processes',
    value: twoApis.messages.rate,
    baseline: base.messages.rate,
    unit: 'req/s',
    baselineName: '1 API process',
  });
  const webBest = best((r) => r.webFetch.rate);
  reportHeadline({
    figure: `web-fetch pages/s, ${webBest.apis} API + ${webBest.workers} workers`,
    value: webBest.webFetch.rate,
    baseline: base.webFetch.rate,
    unit: 'pages/s',
    baselineName: '1 API + 1 worker',
  });
}
