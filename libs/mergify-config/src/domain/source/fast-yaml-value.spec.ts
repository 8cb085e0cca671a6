import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parsePositionedDocument } from './positioned-document';
import { fastYamlValue } from './fast-yaml-value';
import { checkRandomYamlLines, checkYamlOfEveryStyle, YAML_EDGE_CASES } from './testing/yaml-texts';

const LIMIT = 10_000;
const CORPUS = join(__dirname, '../../../test-fixtures/mergify-configs');

function expectSameReading(text: string): void {
  const fast = fastYamlValue(text, LIMIT);
  if (fast === undefined) return;
  const slow = yamlReading(text);
  expect(slow).not.toBe('refused');
  expect(isDeepStrictEqual(fast.value, (slow as { value: unknown }).value)).toBe(true);
}

/** What `yaml` alone makes of the text: its value, or that it refuses it. */
function yamlReading(text: string): { value: unknown } | 'refused' {
  const { document } = parsePositionedDocument(text);
  if (document.errors.length > 0) return 'refused';
  try {
    return { value: document.toJS({ maxAliasCount: LIMIT }) as unknown };
  } catch {
    return 'refused';
  }
}

describe('the fast YAML reading', () => {
  // Scalars and keys where YAML 1.1 and 1.2 readers often disagree, merges, anchors, block and
  // flow styles, escapes: wherever the fast reading answers, `yaml` must have read the same value.
  it.each(Object.entries(YAML_EDGE_CASES))('%s: answers only what yaml reads', (_, text) => {
    expectSameReading(text);
  });

  it('reads every corpus file as yaml does, and takes most of them', () => {
    const files = readdirSync(CORPUS).filter((file) => file.endsWith('.yml'));
    let taken = 0;
    for (const file of files) {
      const text = readFileSync(join(CORPUS, file), 'utf8');
      expectSameReading(text);
      if (fastYamlValue(text, LIMIT)) taken += 1;
    }
    expect(taken).toBeGreaterThan(files.length * 0.9);
  });

  it('answers only what yaml reads for lines of YAML put together at random', () => {
    checkRandomYamlLines(expectSameReading);
  });

  it('reads values written by yaml in every style as yaml reads them back', () => {
    checkYamlOfEveryStyle(expectSameReading);
  });

  it('takes ordinary files, anchors and merge keys included', () => {
    for (const name of [
      'core numbers',
      'quoted and block text',
      'anchors and merge keys',
      'flow collections',
    ])
      expect(fastYamlValue(YAML_EDGE_CASES[name]!, LIMIT)).toBeDefined();
  });

  it.each([
    'duplicate keys',
    'an empty document',
    'two documents',
    'a directive',
    'explicit tags',
    'an alias bomb',
    'a document end first',
  ])('leaves %s to yaml', (name) => {
    expect(fastYamlValue(YAML_EDGE_CASES[name]!, LIMIT)).toBeUndefined();
  });
});
