// The soak's verdict on each sampled resource: does it grow without bound after warm-up? The rule (also in
// docs/operations.md): fit a least-squares line to the samples taken after warm-up, project its slope over one
// hour, and call the resource growing when that projection exceeds both `maxGrowthPerHour` times the resource's
// mean level after warm-up and an absolute floor of its own (so a descriptor count of 30 stepping to 31 in a
// two-minute run is not a leak), and when it ends above its highest sample before warm-up ended. Series marked not judged (event-loop delay, database size: stored data grows
// by design) are printed but never fail the run.
export type Series = {
  name: string;
  unit: string;
  judged: boolean;
  /** Smallest hourly growth that can fail the run: below it, growth is noise or too slow to matter. */
  floorPerHour: number;
  points: { t: number; v: number }[];
};
export type Verdict = { name: string; grows: boolean; line: string };

export function leastSquaresSlope(points: { t: number; v: number }[]): number {
  const n = points.length;
  const mt = points.reduce((s, p) => s + p.t, 0) / n;
  const mv = points.reduce((s, p) => s + p.v, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.v - mv);
    den += (p.t - mt) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export function judgeGrowth(
  all: Series[],
  { warmupSeconds, maxGrowthPerHour }: { warmupSeconds: number; maxGrowthPerHour: number },
): Verdict[] {
  return all.map((s) => {
    const after = s.points.filter((p) => p.t >= warmupSeconds);
    if (after.length < 3) {
      return {
        name: s.name,
        grows: false,
        line: `${s.name.padEnd(24)} too few samples after warm-up (${after.length})`,
      };
    }
    const level = after.reduce((sum, p) => sum + p.v, 0) / after.length;
    const perHour = leastSquaresSlope(after) * 3600;
    const floor = s.floorPerHour;
    // A process that returned memory and regrew to where it was before is not growing: a resource must also end
    // above every sample taken before warm-up ended.
    const earlierPeak = Math.max(...s.points.filter((p) => p.t < warmupSeconds).map((p) => p.v));
    const grows =
      s.judged && perHour > maxGrowthPerHour * level && perHour > floor && (after.at(-1)?.v ?? 0) > earlierPeak;
    const unit = s.unit ? ` ${s.unit}` : '';
    const first = after[0]?.v ?? 0;
    const last = after.at(-1)?.v ?? 0;
    const verdict = !s.judged ? 'reported' : grows ? 'GROWS' : 'flat';
    return {
      name: s.name,
      grows,
      line: `${s.name.padEnd(24)} ${fmt(first)} → ${fmt(last)}${unit}, level ${fmt(level)}${unit}, slope ${perHour >= 0 ? '+' : ''}${fmt(perHour)}${unit}/h (${level ? ((perHour / level) * 100).toFixed(0) : '∞'} % of level): ${verdict}`,
    };
  });
}

const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(1));
