/** The reliability suite (npm run test:reliability): fault injection and property tests, one file at a time. */
import base from './jest.config.js';

export default {
  ...base,
  roots: ['<rootDir>/test/reliability'],
  testPathIgnorePatterns: [],
  // The usual teardown, then the table of the figures the fault tests wrote (scripts/reliability-report.ts).
  globalTeardown: '<rootDir>/test/reliability/global-teardown.mjs',
  testTimeout: 180_000,
  maxWorkers: 1,
};
