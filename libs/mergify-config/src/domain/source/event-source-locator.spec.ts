import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PathSegment } from './configuration-path';
import { EventSourceLocator } from './event-source-locator';
import { FAST_READING_SCHEMA, fastYamlValue } from './fast-yaml-value';
import type { Locator } from './locator';
import { parsePositionedDocument } from './positioned-document';
import { SourceLocator } from './source-locator';
import { checkRandomYamlLines, checkYamlOfEveryStyle, YAML_EDGE_CASES } from './testing/yaml-texts';

const LIMIT = 10_000;
const CORPUS = join(__dirname, '../../../test-fixtures/mergify-configs');
const MAX_PATHS = 3_000;

/** Every path of the value (aliases make shared subtrees: bounded), and steps that lead nowhere. */
function pathsOf(value: unknown): PathSegment[][] {
  const paths: PathSegment[][] = [[], ['nowhere'], [7]];
  const visit = (node: unknown, path: PathSegment[]) => {
    if (paths.length >= MAX_PATHS || path.length > 12) return;
    if (node === null || typeof node !== 'object') return;
    const steps: PathSegment[] = Array.isArray(node)
      ? node.map((_, index) => index)
      : Object.keys(node as Record<string, unknown>);
    for (const step of steps) {
      const next = [...path, step];
      paths.push(next, [...next, 'nowhere'], [...next, 0]);
      visit((node as Record<string, unknown>)[step], next);
    }
  };
  visit(value, []);
  return paths;
}

/** What the event locator answers alone, and how many times it had to ask `yaml`. */
function compareLocators(text: string): { asked: number; fallbacks: number } | undefined {
  const fast = fastYamlValue(text, LIMIT);
  if (fast === undefined) return undefined;
  const reference = new SourceLocator(() => parsePositionedDocument(text));
  let fallbacks = 0;
  const counting: Locator = {
    locate: (path) => {
      fallbacks += 1;
      return reference.locate(path);
    },
  };
  const locator = new EventSourceLocator(text, fast.events, FAST_READING_SCHEMA, counting);
  const paths = pathsOf(fast.value);
  for (const path of paths) expect([path, locator.locate(path)]).toEqual([path, reference.locate(path)]);
  return { asked: paths.length, fallbacks };
}

describe('locating paths from the fast reading', () => {
  it.each(Object.entries(YAML_EDGE_CASES))('%s: the positions yaml gives', (_, text) => {
    compareLocators(text);
  });

  it.each([
    ['anchored keys and maps', '&m\n&k a: 1\nb: *k\nc: &n\n  &j d: 2\ne: *n\n'],
    ['explicit keys', '? a\n: 1\nb:\n  ? c\n  : 2\n'],
    ['quoted keys and items', '"a": 1\n\'b\': [ "x", \'y\' ]\nc:\n  - "z"\n  - \'w\'\n'],
    ['block scalars and empty items', 'a:\n  - |\n    x\n  - >-\n    y\n  -\n  - \nb: |\n  z\n'],
    ['pairs in a flow sequence', 'a: [b: 1, c]\n'],
    ['merges through lists and aliases', 's: &s {x: 1}\nt: &t {y: 2}\nu:\n  <<: [*s, *t]\n  y: 3\nv: [*s]\n'],
    ['keys the core schema reads as numbers', '1.0: a\n0x10: b\n-1: c\n.inf: d\nTrue: e\n"2": f\n'],
    ['line breaks', 'a: 1\r\nb:\r\n  - c\r\n\r\nd: "e\n  f"\n'],
    ['a root sequence', '- a\n- b: 1\n  c: 2\n- - d\n'],
  ])('%s: the positions yaml gives', (_, text) => {
    expect(compareLocators(text)).toBeDefined();
  });

  it('gives the positions yaml gives over the corpus, mostly without yaml', () => {
    let asked = 0;
    let fallbacks = 0;
    for (const file of readdirSync(CORPUS).filter((name) => name.endsWith('.yml'))) {
      const counts = compareLocators(readFileSync(join(CORPUS, file), 'utf8'));
      asked += counts?.asked ?? 0;
      fallbacks += counts?.fallbacks ?? 0;
    }
    expect(asked).toBeGreaterThan(1000);
    expect(fallbacks).toBeLessThan(asked * 0.01);
  });

  it('gives the positions yaml gives for lines of YAML put together at random', () => {
    checkRandomYamlLines((text) => void compareLocators(text));
  });

  it('gives the positions yaml gives for values written by yaml in every style', () => {
    checkYamlOfEveryStyle((text) => void compareLocators(text));
  });
});
