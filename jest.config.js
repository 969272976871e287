/** Jest runs the TypeScript sources as ESM through SWC; every worker gets its own database (see test/global-setup.mjs). */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The reliability suite and the console's browser tests have their own configs and scripts
  // (jest.reliability.config.js, npm run test:reliability; jest.console.config.js, npm run test:console).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/reliability/', '<rootDir>/test/console/'],
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
  // Also the hooks' limit: a beforeAll that starts a worker process waits up to a minute on a busy machine.
  testTimeout: 60_000,
  maxWorkers: 2,
};
