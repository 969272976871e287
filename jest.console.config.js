/** The console's browser tests (npm run test:console): real Chromium against the real API, workers and simulator. */
import base from './jest.config.js';

export default {
  ...base,
  roots: ['<rootDir>/test/console'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 120_000,
  maxWorkers: 2,
  // One more run for a failed test, its first failure printed (test/console/retry-once.setup.ts says why).
  setupFilesAfterEnv: ['<rootDir>/test/console/retry-once.setup.ts'],
};
