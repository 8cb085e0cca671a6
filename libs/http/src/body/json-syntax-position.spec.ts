import { findJsonSyntaxError } from './json-syntax-position';

describe('findJsonSyntaxError', () => {
  it.each([
    ['{"a":}', 5, 'Expecting value'],
    ['{"a":1', 6, "Expecting ',' delimiter"],
    ['{a:1}', 1, 'Expecting property name enclosed in double quotes'],
    ['[1,2,]', 5, 'Expecting value'],
    ['{"a":1}x', 7, 'Extra data'],
    ['{"a" 1}', 5, "Expecting ':' delimiter"],
    ['"abc', 0, 'Unterminated string starting at'],
    ['"a\\qb"', 2, 'Invalid \\escape'],
    ['tru', 0, 'Expecting value'],
    ['-', 1, 'Expecting value'],
    ['1.', 2, 'Expecting value'],
    // Six code points (UTF-16 would say 7): the offset counts characters, as Python does.
    ['{"é😀":', 6, 'Expecting value'],
  ])('finds the error in %s at %i', (text, position, reason) => {
    expect(findJsonSyntaxError(text)).toEqual({ position, reason });
  });

  it.each(['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "\\u00e9\\n"]} ', '0'])(
    'accepts %s',
    (text) => {
      expect(findJsonSyntaxError(text)).toBeNull();
    },
  );
});
