import { exceedsJsonNestingDepth } from './json-nesting-depth';

const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('exceedsJsonNestingDepth', () => {
  it('accepts bodies up to the limit, arrays and objects alike', () => {
    expect(exceedsJsonNestingDepth(nested(64))).toBe(false);
    expect(exceedsJsonNestingDepth('{"a":'.repeat(64) + '1' + '}'.repeat(64))).toBe(false);
    expect(exceedsJsonNestingDepth('{"a":[{"b":[]}],"c":{}}', 4)).toBe(false);
    expect(exceedsJsonNestingDepth('{"a":[{"b":[]}],"c":{}}', 3)).toBe(true);
  });

  it('refuses one level more, and far more, without recursing', () => {
    expect(exceedsJsonNestingDepth(nested(65))).toBe(true);
    expect(exceedsJsonNestingDepth('{"a":'.repeat(65) + '1' + '}'.repeat(65))).toBe(true);
    expect(exceedsJsonNestingDepth('['.repeat(1_000_000))).toBe(true);
  });

  it('counts depth, not the number of containers', () => {
    expect(exceedsJsonNestingDepth(`[${'[],'.repeat(10_000)}[]]`, 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(exceedsJsonNestingDepth(`{"a":"${'['.repeat(100)}"}`, 1)).toBe(false);
    expect(exceedsJsonNestingDepth(`["\\"${'{'.repeat(100)}"]`, 1)).toBe(false);
    expect(exceedsJsonNestingDepth(`["\\\\",[[1]]]`, 2)).toBe(true);
  });
});
