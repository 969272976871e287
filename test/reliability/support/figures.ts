// The reliability suite's figures: each fault test appends one JSON line (its name and numbers) to this run's
// figures file and prints it; scripts/reliability-report.ts prints the whole run as one table.
import { appendFileSync, mkdirSync } from 'node:fs';
import { figuresDir, figuresFileOf } from '../../../scripts/reliability-report.js';
import { inheritedEnv } from '../../../shared/config/index.js';

/** Counts and seconds a fault test measured; every key becomes a column of the report. */
export type Figures = {
  /** Jobs waiting or in flight when the fault hit: what jobsLost is out of. */
  jobsAtRisk?: number;
  /** Jobs (or accepted events) that never took effect. */
  jobsLost?: number;
  /** Effects that happened more than once: wallet charges, counted events, history rows, state changes. */
  doubleEffects?: number;
  /** Answers in the 5xx range other than 503 (a 500 during an outage is a bug). */
  unexpected5xx?: number;
  /** Requests that got no answer within the client's deadline. */
  hangs?: number;
  answered503?: number;
  /** Seconds from SIGKILL to the interrupted job's completion by the replacement worker. */
  requeueSeconds?: number;
  /** Seconds from the service being back to the first 200 answer of the API. */
  apiRecoverySeconds?: number;
  /** Seconds from the service being back to the first new job processed by the (not restarted) worker. */
  workerRecoverySeconds?: number;
  /** Money of settled requests lost with Redis data (USD): charged by the mirror, never written to PostgreSQL. */
  undercharged?: number;
  /** Outbound deliveries repeated because the worker died after sending (at-least-once channels). */
  redeliveries?: number;
  /** Requests sent by the fuzzer, and the answers among them in the 5xx range (any). */
  requests?: number;
  answered5xx?: number;
  /** Property tests: runs of the property, operations fired in all, invariant violations seen. */
  runs?: number;
  operations?: number;
  violations?: number;
};

export const figuresFile = (run = inheritedEnv().OCKHUB_TEST_RUN ?? 'manual') => figuresFileOf(run);

export function recordFigures(test: string, figures: Figures): void {
  mkdirSync(figuresDir, { recursive: true });
  appendFileSync(figuresFile(), `${JSON.stringify({ test, at: new Date().toISOString(), ...figures })}\n`);
  const shown = Object.entries(figures)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  process.stdout.write(`[reliability figures] ${test}: ${shown}\n`);
}

/** Seconds between two Date.now() readings, to one decimal. */
export const secondsBetween = (from: number, to: number) => Math.round((to - from) / 100) / 10;
