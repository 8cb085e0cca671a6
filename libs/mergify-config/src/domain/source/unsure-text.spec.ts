import fc from 'fast-check';
import { hasUnsureText } from './unsure-text';

/** What the check answers, as one pattern: slower, plainer. */
const DEFINITION =
  /\t|^ +(?:---|\.\.\.)|(?<=\n)(?:---|\.\.\.)|(?<![\s\S])\uFEFF?\.\.\.|(?:^|[ \uFEFF])[|>][-+]?[1-9]/m;

describe('text the fast reading leaves to yaml', () => {
  it.each([
    ['a tab', 'a:\tb\n', true],
    ['an indented document start', 'a:\n  ---\n', true],
    ['a document end after a line', 'a: 1\n...\n', true],
    ['a document start at the very start', '---\na: 1\n', false],
    ['a document end at the very start', '...\na: 1\n', true],
    ['an indented marker at the very start', '  ---\n', true],
    ['an indented marker after a carriage return', 'a\r ...', true],
    ['an indentation indicator', 'a: |2\n  b\n', true],
    ['a chomped indentation indicator', 'a: >-1\n b\n', true],
    ['dashes inside a value', 'a: b---c\nd: e ... f\n', false],
    ['a block scalar without indicator', 'a: |-\n  b\n', false],
    ['a root block scalar with an indicator', '|1\n a\n', true],
    ['an item with an indicator', '- >+2\n   a\n', true],
    ['a comparison in a condition', "- '#approved-reviews-by>1'\n- '#files|2'\n", false],
  ])('%s', (_, text, unsure) => {
    expect(hasUnsureText(text)).toBe(unsure);
    expect(DEFINITION.test(text)).toBe(unsure);
  });

  it('answers as the single pattern does for text put together at random', () => {
    const piece = fc.constantFrom(
      ...[' ', '  ', '\n', '\r', '\r\n', '\u2028', '\uFEFF', '\t', '-', '---', '.', '...', '|', '>'],
    );
    const more = fc.constantFrom('+', '-', '1', '0', 'a', ':', '#');
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, more), { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        expect(hasUnsureText(text)).toBe(DEFINITION.test(text));
      }),
      { numRuns: 3000 },
    );
  });
});
