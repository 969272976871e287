// The figures of one property (runs, service calls fired, invariant violations): recorded with the suite's other
// figures (one row of the table npm run test:reliability prints at the end).
import fc from 'fast-check';
import { recordFigures } from '../support/figures.js';

export type PropertyFigures = {
  suite: 'properties';
  name: string;
  runs: number;
  operations: number;
  violations: number;
};

/** Counts what one property did; `check` records a broken invariant and lets the run fail with its message. */
export class PropertyTally {
  runs = 0;
  operations = 0;
  violations = 0;
  private readonly problems: string[] = [];

  constructor(readonly name: string) {}

  /** Starts one run of the property (fast-check's shrinking counts too: every run fires real calls). */
  startRun(): void {
    this.runs += 1;
    this.problems.length = 0;
  }

  fired(calls = 1): void {
    this.operations += calls;
  }

  /** Notes a violated invariant; `settle` throws them all together at the end of the run. */
  check(holds: boolean, problem: string): void {
    if (holds) return;
    this.violations += 1;
    this.problems.push(problem);
  }

  /** Ends a run: a run with a broken invariant fails the property with every problem it found. */
  settle(): void {
    if (this.problems.length > 0) throw new Error(`invariants broken:\n- ${this.problems.join('\n- ')}`);
  }

  figures(): PropertyFigures {
    return {
      suite: 'properties',
      name: this.name,
      runs: this.runs,
      operations: this.operations,
      violations: this.violations,
    };
  }
}

export function reportFigures(tally: PropertyTally): void {
  const { name, runs, operations, violations } = tally.figures();
  recordFigures(`Property: ${name}`, { runs, operations, violations });
}

/** fc.assert, then the figures (also of a failed property), then no violation seen at all, shrinking included. */
export async function assertProperty<T>(
  tally: PropertyTally,
  property: fc.IAsyncProperty<T>,
  parameters: fc.Parameters<T>,
) {
  try {
    await fc.assert(property, parameters);
  } finally {
    reportFigures(tally);
  }
  expect(tally.violations).toBe(0);
}
