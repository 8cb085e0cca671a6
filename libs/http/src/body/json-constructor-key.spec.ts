import { hasConstructorKey, mayHoldConstructorKey } from './json-constructor-key';

describe('hasConstructorKey', () => {
  it.each(['{"constructor":1}', '{"a":[{"b":{"constructor":"x"}}]}', '[[{"constructor":null}]]'])(
    'finds the key in %s',
    (text) => {
      expect(mayHoldConstructorKey(text)).toBe(true);
      expect(hasConstructorKey(JSON.parse(text))).toBe(true);
    },
  );

  it('finds the key spelt with escapes', () => {
    const text = '{"a":{"\\u0063onstructor":1}}';
    expect(mayHoldConstructorKey(text)).toBe(true);
    expect(hasConstructorKey(JSON.parse(text))).toBe(true);
  });

  it.each(['{"reason":"constructor"}', '["constructor"]', '{"a":{"constructors":1}}', '1', 'null'])(
    'accepts %s',
    (text) => expect(hasConstructorKey(JSON.parse(text))).toBe(false),
  );
});
