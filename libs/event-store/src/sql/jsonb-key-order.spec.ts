import { describeEachDatabase } from '@switchyard/testing';
import type { SqlExecutor } from '@switchyard/sql';
import { inJsonbKeyOrder } from './jsonb-key-order';

describeEachDatabase('inJsonbKeyOrder', (database) => {
  let executor: SqlExecutor;
  beforeAll(async () => {
    executor = await database.open();
  });
  afterAll(async () => {
    await executor.close();
  });

  const values = [
    '{"b":1,"a":2,"aa":3,"ab":{"z":[{"d":1,"c":2}],"y":null}}',
    '{"é":1,"z":2,"zz":3,"ü":4,"€":5,"\\ud83d\\ude00":6,"__proto__":{"x":1},"constructor":7}',
    '[{"b":1,"a":2},[{"d":[],"c":{}}],"s",1.5,true,null]',
    '{"a":1,"b":2,"aa":3}',
    '"plain"',
  ];

  it.each(values)('orders the keys of %s as jsonb does', async (json) => {
    const { rows } = await executor.query<{ value: unknown }>('SELECT $1::jsonb AS value', [json]);
    expect(JSON.stringify(inJsonbKeyOrder(JSON.parse(json)))).toBe(JSON.stringify(rows[0]!.value));
  });

  it('keeps an object already in that order, and "__proto__" as a plain key', () => {
    const ordered = { a: 1, b: { c: 2 } };
    expect(inJsonbKeyOrder(ordered)).toBe(ordered);
    const reordered = inJsonbKeyOrder(JSON.parse('{"__proto__":{"polluted":true},"a":1}') as object);
    expect(Object.keys(reordered)).toEqual(['a', '__proto__']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(reordered)).toBe(Object.prototype);
  });
});
