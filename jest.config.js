/** Jest runs TypeScript through SWC (fast on 2 cores) with decorator metadata for Nest DI. */
const { compilerOptions } = require('./tsconfig.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  // A subpath alias (`@switchyard/event-store/*`) maps every entry point below the lib.
  if (alias.endsWith('/*'))
    moduleNameMapper[`^${alias.slice(0, -1)}(.*)$`] = `<rootDir>/${target.slice(0, -1)}$1`;
  else moduleNameMapper[`^${alias}$`] = `<rootDir>/${target}`;
}

const ESM_ONLY_PACKAGES = [
  '@octokit',
  'universal-user-agent',
  'universal-github-app-jwt',
  'before-after-hook',
  'toad-cache',
  'json-with-bigint',
  'fast-content-type-parse',
  'content-type',
  // @fastify/static's (the dashboard's assets).
  'content-disposition',
  // The dashboard's components: Preact 11 ships only `.mjs` modules.
  'preact',
];

// Packages whose exports offer only an `import` condition, which jest's CommonJS resolver does not
// try: point it at their Node entry (compiled by SWC through transformIgnorePatterns below).
moduleNameMapper['^@octokit/webhooks-methods$'] =
  '<rootDir>/node_modules/@octokit/webhooks-methods/dist-node/index.js';

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testMatch: ['**/*.spec.ts', '**/*.spec.tsx', '**/test/**/*.e2e-spec.ts'],
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
    // The dashboard's components (apps/dashboard): JSX for Preact, as esbuild compiles it for the page.
    '^.+\\.tsx$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic', importSource: 'preact' } },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
    '^.+\\.m?js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  // @octokit/* and a few of their dependencies ship only ES modules; jest loads CommonJS, so those
  // (and only those) are compiled by SWC like our own sources instead of being left untransformed.
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY_PACKAGES.join('|')})/)`],
  reporters: ['default', '<rootDir>/libs/testing/reporters/closing-line-reporter.js'],
  // 30 s on an idle machine, stretched by its load (libs/testing/src/time-scale.ts).
  testTimeout: 30000,
  setupFilesAfterEnv: ['<rootDir>/libs/testing/jest/scale-timeouts.ts'],
  maxWorkers: 2,
};
