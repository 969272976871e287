// A time chart (uPlot: canvas, ~50 KB, loaded only by the pages that draw one) with its numbers also in a table
// for screen readers, so the chart is never the only way to read them.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export type ChartSeries = {
  label: string;
  values: (number | null)[];
  kind: 'line' | 'bars' | 'step';
  color: string;
  format?: (value: number) => string;
};

type Props = {
  title: string;
  /** Unix seconds, ascending. */
  times: number[];
  series: ChartSeries[];
  height?: number;
  formatTime?: (seconds: number) => string;
  /**
   * Seconds each point stands for (a day's bars: 86,400): the time axis then keeps half a bucket of room at each end,
   * so the first and last bars are whole, and ticks only on whole buckets (no 08:00 and 16:00 between days).
   */
  bucket?: number;
};

const pathFor = (kind: ChartSeries['kind']) =>
  kind === 'bars'
    ? uPlot.paths.bars?.({ size: [0.6, 40] })
    : kind === 'step'
      ? uPlot.paths.stepped?.({ align: 1 })
      : undefined;

/** Narrow enough for a phone's screen (390 px less the page's and panel's padding). */
const MIN_WIDTH = 240;

/** uPlot's own axis font (its default), to measure the labels it will draw. */
const AXIS_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';

/**
 * The value axis's width: its widest label plus the ticks and the gap, never less than the 70 px it always had.
 * A fixed 70 px cut a balance in the millions to "),000,000" at the chart's left edge.
 */
const valueAxisSize: uPlot.Axis.Size = (self, values) => {
  const widest = (values ?? []).reduce((w, v) => (v.length > w.length ? v : w), '');
  self.ctx.save();
  self.ctx.font = AXIS_FONT;
  const text = self.ctx.measureText(widest).width;
  self.ctx.restore();
  return Math.max(70, Math.ceil(text) + 20);
};

const DAY = 86_400;

/**
 * The time axis's labels in UTC and in ISO order, as every other date in the console: uPlot's own are local time in
 * US order ("10/27 2026", "2pm"). Each row: the smallest tick step it serves, the label, then the label when the
 * year, month, day, hour, minute or second rolls over (null: none), then 1 (append that to the label).
 */
const utcAxisLabels: uPlot.Axis.TimeValuesConfig = [
  [DAY * 365, '{YYYY}', null, null, null, null, null, null, 1],
  [DAY * 28, '{YYYY}-{MM}', null, null, null, null, null, null, 1],
  [DAY, '{MM}-{DD}', '\n{YYYY}', null, null, null, null, null, 1],
  [60, '{HH}:{mm}', '\n{YYYY}-{MM}-{DD}', null, '\n{MM}-{DD}', null, null, null, 1],
  [1, '{HH}:{mm}:{ss}', '\n{YYYY}-{MM}-{DD}', null, '\n{MM}-{DD}', null, null, null, 1],
];
const utcDate = (seconds: number) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC');

/** Value labels as they are (uPlot's own round to 3 decimals: "0.001, 0.001, 0, 0" for a day's spending of cents). */
const axisNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });
const valueLabels = (_self: uPlot, splits: number[]) => splits.map((v) => axisNumber.format(v));

/** Tick steps of whole buckets: 1, 2, 7, 14 buckets, then about a month, a quarter, half a year, a year of days. */
const bucketSteps = (bucket: number) => [1, 2, 7, 14, 28, 91, 182, 364].map((n) => n * bucket);

const defaultTime = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');

export function TimeChart({ title, times, series, height = 240, formatTime = defaultTime, bucket }: Props) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const plot = new uPlot(
      {
        width: Math.max(MIN_WIDTH, el.clientWidth),
        height,
        legend: { show: false },
        cursor: { show: true, drag: { x: false, y: false } },
        scales: {
          x: {
            time: true,
            ...(bucket
              ? { range: (_self, min, max) => [min - bucket / 2, max + bucket / 2] as uPlot.Range.MinMax }
              : {}),
          },
        },
        tzDate: utcDate,
        axes: [
          { stroke: '#4d5661', values: utcAxisLabels, ...(bucket ? { incrs: bucketSteps(bucket) } : {}) },
          { stroke: '#4d5661', size: valueAxisSize, values: valueLabels },
        ],
        series: [
          {},
          ...series.map((s) => {
            const paths = pathFor(s.kind);
            return {
              label: s.label,
              stroke: s.color,
              width: 2,
              fill: s.kind === 'bars' ? `${s.color}99` : undefined,
              // A bar is its own mark; a point on it (or on a day without any) only adds noise.
              points: { show: s.kind !== 'bars' && times.length < 40 },
              ...(paths ? { paths } : {}),
            };
          }),
        ],
      },
      [times, ...series.map((s) => s.values)] as uPlot.AlignedData,
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(MIN_WIDTH, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [times, series, height, bucket]);

  return (
    <figure className="panel">
      <figcaption>
        <strong>{title}</strong>{' '}
        <span className="muted">
          {series.map((s) => (
            <span key={s.label} className="legend-item">
              <span style={{ color: s.color }} aria-hidden="true">
                ■
              </span>{' '}
              {s.label}
            </span>
          ))}
        </span>
      </figcaption>
      <div ref={box} className="chart" aria-hidden="true" />
      {/* Hidden in a box: a table is never narrower than its cells, so hidden by itself it widens the page. */}
      <div className="visually-hidden">
        <table data-testid="chart-data">
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              {series.map((s) => (
                <th key={s.label} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {times.map((t, i) => (
              <tr key={t}>
                <th scope="row">{formatTime(t)}</th>
                {series.map((s) => {
                  const v = s.values[i];
                  return <td key={s.label}>{v === null || v === undefined ? '' : (s.format?.(v) ?? String(v))}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
