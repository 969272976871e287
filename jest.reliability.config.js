/** The reliability suite (npm run test:reliability): fault injection and property tests, one file at a time. */
import base from './jest.config.js';

export default {
  ...base,
  roots: ['<rootDir>/test/reliability'],
  testPathIgnorePatterns: [],
  testTimeout: 180_000,
  maxWorkers: 1,
};
