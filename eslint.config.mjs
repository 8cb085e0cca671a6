import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import { readFileSync } from 'node:fs';

// What each lib may import (tools/lib-order.json, the order docs/architecture.md draws).
const {
  $comment: _,
  $testsMayAlsoImport: TESTS_MAY_ALSO_IMPORT,
  ...LIB_ORDER
} = JSON.parse(readFileSync(new globalThis.URL('./tools/lib-order.json', import.meta.url)));
const TEST_FILES = ['**/*.spec.ts', '**/testing/**', '**/test/**', '**/contract/**'];

// Flat config does not merge a rule's options across blocks, so every block that restricts imports
// states all of its restrictions: these are the ones each combines.
const HTTP_DECORATORS = {
  name: '@nestjs/common',
  importNames: ['Body', 'Query', 'Param'],
  message: 'Take Body, Query and Param from @switchyard/http: they run request validation.',
};
const DOMAIN_PURITY = [
  { group: ['@nestjs/*'], message: 'domain/ folders are framework-free.' },
  {
    group: ['pg', 'pg-*', 'ioredis', '@electric-sql/pglite', '@electric-sql/pglite/*', '@switchyard/sql'],
    message: 'domain/ folders never touch storage.',
  },
  {
    group: [
      'fastify',
      '@eventstore/*',
      'class-validator',
      'class-transformer',
      '@octokit/*',
      '@switchyard/platform',
      '@switchyard/http',
    ],
    message: 'domain/ folders never touch adapters, the process or HTTP.',
  },
];
const libOrder = (lib, { tests }) => {
  const allowed = new Set([
    lib,
    ...LIB_ORDER[lib],
    ...(tests ? ['testing', ...(TESTS_MAY_ALSO_IMPORT[lib] ?? [])] : []),
  ]);
  const refused = Object.keys(LIB_ORDER).filter((other) => !allowed.has(other));
  return refused.length === 0
    ? []
    : [
        {
          group: refused.flatMap((other) => [`@switchyard/${other}`, `@switchyard/${other}/*`]),
          message: `libs/${lib} may import only ${[...allowed].join(', ')} (tools/lib-order.json): a lib never imports one above it.`,
        },
      ];
};
const restrictImports = (patterns, { http = true } = {}) => [
  'error',
  { paths: http ? [HTTP_DECORATORS] : [], patterns },
];
const DOMAIN_FILES = ['**/domain/**/*.ts'];
const libOrderBlocks = Object.keys(LIB_ORDER).flatMap((lib) => {
  const files = [`libs/${lib}/**/*.ts`];
  const testFiles = TEST_FILES.map((glob) => `libs/${lib}/${glob}`);
  const domainFiles = [`libs/${lib}/**/domain/**/*.ts`];
  return [
    { files, rules: { 'no-restricted-imports': restrictImports(libOrder(lib, { tests: false })) } },
    { files: testFiles, rules: { 'no-restricted-imports': restrictImports(libOrder(lib, { tests: true })) } },
    {
      files: domainFiles,
      rules: {
        'no-restricted-imports': restrictImports([...DOMAIN_PURITY, ...libOrder(lib, { tests: false })]),
      },
    },
    {
      files: domainFiles.flatMap((domain) =>
        TEST_FILES.map((glob) => `${domain.replace('/**/*.ts', '')}/${glob}`),
      ),
      rules: {
        'no-restricted-imports': restrictImports([...DOMAIN_PURITY, ...libOrder(lib, { tests: true })]),
      },
    },
  ];
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      '.switchyard/**',
      '.switchyard-demo/**',
      'jest.config.js',
      'libs/testing/reporters/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // No global validation pipe: these three come validated from @switchyard/http (validated-params.ts).
    files: ['**/*.ts'],
    rules: { 'no-restricted-imports': restrictImports([]) },
  },
  {
    // The domain is pure: no framework, no SQL driver, no Redis, no clock-bearing infrastructure.
    files: DOMAIN_FILES,
    rules: {
      'no-restricted-imports': restrictImports(DOMAIN_PURITY),
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Time arrives in the command.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Time arrives in the command.',
        },
      ],
    },
  },
  ...libOrderBlocks,
  {
    // The one place that wraps Nest's Body, Query and Param (only the lib order applies here).
    files: ['libs/http/src/validation/validated-params.ts'],
    rules: { 'no-restricted-imports': restrictImports(libOrder('http', { tests: false }), { http: false }) },
  },
);
