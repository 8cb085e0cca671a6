import fc from 'fast-check';
import { stringify } from 'yaml';

/**
 * YAML texts that the two readers (js-yaml for speed, `yaml` for the verdict and positions) must be
 * held to the same answers on: edge cases by name, lines put together at random, and values
 * written by `yaml` in every style.
 */
const aliasBomb = [
  'a: &a [x, x, x, x, x, x, x, x, x, x]',
  ...Array.from({ length: 5 }, (_, i) => {
    const from = String.fromCharCode(97 + i);
    const to = String.fromCharCode(98 + i);
    return `${to}: &${to} [${Array(10).fill(`*${from}`).join(', ')}]`;
  }),
].join('\n');

// Where YAML 1.1 and 1.2 readers often disagree, merges, anchors, block and flow styles, escapes.
export const YAML_EDGE_CASES: Record<string, string> = {
  'core booleans and nulls':
    'a: true\nb: True\nc: FALSE\nd: ~\ne: null\nf: Null\ng:\nh: yes\ni: off\nj: nULL\n',
  'core numbers':
    'a: 1\nb: -2\nc: +3\nd: 0o17\ne: 0x1F\nf: 017\ng: 1.5\nh: .5\ni: 1e3\nj: -.inf\nk: .NaN\nl: 1_000\nm: 0b101\nn: 1:20\no: 6.8523015e+5\np: 0.\n',
  'dates stay text': 'a: 2024-01-01\nb: 2024-01-01T10:00:00Z\nc: 10:30\n',
  'keys that are not text': '1: a\ntrue: b\n~: c\n1.5: d\n0x10: e\n',
  'quoted and block text':
    "a: \"x\\ty \\u263A \\x41 \\N\"\nb: 'it''s'\nc: |\n  one\n  two\nd: >-\n  folded\n  text\n\n  para\ne: |+\n  keep\n\nf: plain\n  continued\n",
  'flow collections': 'a: {b: [1, 2, {c: d}], e: "f"}\nb: [ ]\nc: { }\n',
  'anchors and merge keys': [
    'shared:',
    '  base: &base {a: 1, b: 2}',
    '  more: &more {b: 3, c: 4}',
    'x:',
    '  <<: [*base, *more]',
    '  a: 0',
    'y:',
    '  <<: *more',
    'z: *base',
  ].join('\n'),
  'prototype keys': '__proto__: {polluted: true}\nconstructor: x\n',
  'a merge of a non-mapping': 'a: &a [1]\nb:\n  <<: *a\n',
  'duplicate keys': 'a: 1\na: 2\n',
  'duplicate keys through spelling': 'a: 1\n"a": 2\n',
  'duplicate null keys': '~: 1\nnull: 2\n',
  'an empty document': '',
  'comments only': '# nothing\n',
  'an explicit document': '---\na: 1\n...\n',
  'a document end first': '...\na: 1\n',
  'two documents': 'a: 1\n---\nb: 2\n',
  'a directive': '%YAML 1.1\n---\na: yes\n',
  'explicit tags': 'a: !!str 1\nb: !!binary aGk=\nc: !custom x\nd: !!set {a, b}\n',
  'an unknown alias': 'a: *nothing\n',
  'an alias bomb': aliasBomb,
  'tabs in indentation': 'a:\n\tb: 1\n',
  'a long implicit key': `${'k'.repeat(1100)}: v\n`,
  'complex keys': '? [a, b]\n: c\n',
  'an alias as a key': 'a: &k 1\nb:\n  *k : x\n',
  'a multi-line quoted key': '"a\n b": 1\n',
  'a multi-line flow key': 'x: {"a\n b": 1}\n',
  'an explicit multi-line key': '? a\n  b\n: 1\n',
  'an empty key': ': x\n',
  'a comment glued to a value': 'a: b#c\nd: e #f\n',
  'unbalanced quotes': 'a: "b\n',
  'a flow mapping across lines': 'a: {b: 1,\n  c: 2}\n',
};

/** Up to 8 lines of YAML-ish fragments, put together at random: most are not valid YAML. */
const randomYamlLines = (() => {
  const scalar = fc.constantFrom(
    ...['a', '~', 'null', '1', '0x1F', '1_0', 'yes', '.5', '"q"', "'s'", '', '1:2', 'a b', '@a', '`a'],
    ...['%a', '!a', '|', '>-', '-', '---', '...', '"a\\x41"', '"\\', "'a''", 'a#b', '\t', '?', '*', '&'],
  );
  const line = fc.tuple(
    fc.constantFrom('', '  ', '    ', '- ', '  - ', '? ', ': ', '  <<: '),
    fc.constantFrom('', '&x ', '*x', '&y ', '*y'),
    scalar,
    fc.constantFrom(
      ...['', ':', ': ', ' #c', ': [', ']', ': {', '}', ', ', ': |', '\t', ' - ', ': >'],
      '\n  ',
    ),
    scalar,
  );
  return fc
    .array(
      line.map((parts) => parts.join('')),
      { maxLength: 8 },
    )
    .map((lines) => `${lines.join('\n')}\n`);
})();

/** A random value written by `yaml` in a random collection and string style. */
const yamlOfEveryStyle = (() => {
  const key = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom('1', 'true', 'null', '<<', '~', '-a', '#'),
  );
  const leaf = fc.oneof(
    ...[fc.string({ maxLength: 12 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null)],
    fc.constantFrom(
      '2024-01-01',
      '0x1F',
      '1_000',
      'yes',
      '.inf',
      '-0',
      '010',
      ' a ',
      'a\n\nb\n',
      '@x',
      'a: b',
    ),
  );
  const { node } = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(tie('node'), { maxLength: 4 }),
      fc.dictionary(key, tie('node'), { maxKeys: 4 }),
    ),
  }));
  const style = fc.record({
    collectionStyle: fc.constantFrom('any' as const, 'block' as const, 'flow' as const),
    defaultStringType: fc.constantFrom(
      ...(['PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'] as const),
    ),
    lineWidth: fc.constantFrom(0, 20, 80),
  });
  return fc.tuple(node, style).map(([value, options]) => stringify(value, options));
})();

/** Runs `check` (which throws on a failure) over 500 texts of random YAML lines. */
export function checkRandomYamlLines(check: (text: string) => void): void {
  fc.assert(fc.property(randomYamlLines, check), { numRuns: 500 });
}

/** Runs `check` (which throws on a failure) over 300 random values written by `yaml`. */
export function checkYamlOfEveryStyle(check: (text: string) => void): void {
  fc.assert(fc.property(yamlOfEveryStyle, check), { numRuns: 300 });
}
