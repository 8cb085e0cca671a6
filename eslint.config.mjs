import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

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
    ignores: ['libs/http/src/validation/validated-params.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@nestjs/common',
              importNames: ['Body', 'Query', 'Param'],
              message: 'Take Body, Query and Param from @switchyard/http: they run request validation.',
            },
          ],
        },
      ],
    },
  },
  {
    // The domain is pure: no framework, no SQL driver, no Redis, no clock-bearing infrastructure.
    files: ['**/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@nestjs/*'], message: 'domain/ folders are framework-free.' },
            {
              group: ['pg', 'pg-*', 'ioredis', '@electric-sql/pglite', '@electric-sql/pglite/*'],
              message: 'domain/ folders never touch storage.',
            },
            {
              group: ['fastify', '@eventstore/*', 'class-validator', 'class-transformer'],
              message: 'domain/ folders never touch adapters.',
            },
          ],
        },
      ],
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
);
