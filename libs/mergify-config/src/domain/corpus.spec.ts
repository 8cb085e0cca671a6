import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateConfiguration } from './validate-configuration';

/**
 * Every real configuration of the corpus (libs/mergify-config/test-fixtures/mergify-configs, copied from
 * the research material with its INDEX.tsv) goes through the validator on the day of issue 35:
 * whatever the verdict (Mergify's schema decides it, see mergify-schema.conformance.spec.ts), every
 * error is placed on a line, and every deprecation of a valid file has its deadline, path and line.
 */
const CORPUS = join(__dirname, '../../test-fixtures/mergify-configs');
const TODAY = new Date('2026-11-28T00:00:00Z');

const files = readdirSync(CORPUS)
  .filter((file) => file.endsWith('.yml'))
  .sort();

describe('the configuration corpus', () => {
  it('has an index entry for every file', () => {
    const indexed = new Set(
      readFileSync(join(CORPUS, 'INDEX.tsv'), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split('\t')[0]),
    );
    expect(files.length).toBeGreaterThanOrEqual(120);
    for (const file of files) expect(indexed.has(file)).toBe(true);
  });

  it.each(files)('%s: errors on their lines, deprecations with a deadline and a place', (file) => {
    const result = validateConfiguration(readFileSync(join(CORPUS, file), 'utf8'), TODAY);
    if (!result.valid) {
      for (const error of result.errors) expect(error.position?.line).toBeGreaterThan(0);
      return;
    }
    for (const deprecation of result.deprecations) {
      expect(deprecation.deadline).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (deprecation.path !== null) expect(deprecation.position?.line).toBeGreaterThan(0);
    }
  });

  it('calls removed forms errors, each on its line with its removal date', () => {
    const result = validateConfiguration(readFileSync(join(CORPUS, 'Agoric__agoric-sdk.yml'), 'utf8'), TODAY);
    expect(result.valid).toBe(false);
    if (result.valid) return;
    const removed = result.errors.filter((error) =>
      error.message.startsWith("removed from Mergify's configuration"),
    );
    expect(removed.length).toBeGreaterThan(0);
    for (const error of removed) {
      expect(error.message).toMatch(/on \d{4}-\d{2}-\d{2}\. /);
      expect(error.position?.line).toBeGreaterThan(0);
    }
  });
});
