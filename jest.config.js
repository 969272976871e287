/** Jest runs the TypeScript sources as ESM through SWC; every worker gets its own database (see test/global-setup.mjs). */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The reliability suite has its own config and script (jest.reliability.config.js, npm run test:reliability).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/reliability/'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } },
    ],
  },
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  testTimeout: 30_000,
  maxWorkers: 2,
};
