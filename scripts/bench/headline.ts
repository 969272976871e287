// The one line a benchmark prints per headline figure, so `npm run bench` (run-all.ts) can gather them in a table:
// the measured value against its in-run baseline, and their ratio.
export const HEADLINE_MARK = 'BENCH-HEADLINE ';

export type Headline = {
  /** What is compared, e.g. "json p50, 16 concurrent". */
  figure: string;
  /** The measured side and its baseline, in the same unit. */
  value: number;
  baseline: number;
  unit: string;
  /** What the baseline is, e.g. "simulator direct". */
  baselineName: string;
};

export type ParsedHeadline = Headline & { bench: string; ratio: number };

export function reportHeadline(headline: Headline): void {
  const ratio = headline.baseline === 0 ? Number.NaN : headline.value / headline.baseline;
  console.log(`${HEADLINE_MARK}${JSON.stringify({ ...headline, ratio })}`);
}

export function parseHeadlines(bench: string, output: string): ParsedHeadline[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith(HEADLINE_MARK))
    .map((line) => ({ bench, ...(JSON.parse(line.slice(HEADLINE_MARK.length)) as Headline & { ratio: number }) }));
}
