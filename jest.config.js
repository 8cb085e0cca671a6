/** Jest runs TypeScript through SWC (fast on 2 cores) with decorator metadata for Nest DI. */
const { compilerOptions } = require('./tsconfig.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  // A subpath alias (`@switchyard/event-store/*`) maps every entry point below the lib.
  if (alias.endsWith('/*'))
    moduleNameMapper[`^${alias.slice(0, -1)}(.*)$`] = `<rootDir>/${target.slice(0, -1)}$1`;
  else moduleNameMapper[`^${alias}$`] = `<rootDir>/${target}`;
}

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs'],
  testMatch: ['**/*.spec.ts', '**/test/**/*.e2e-spec.ts'],
  moduleNameMapper,
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  reporters: ['default', '<rootDir>/libs/testing/reporters/closing-line-reporter.js'],
  testTimeout: 30000,
  maxWorkers: 2,
};
