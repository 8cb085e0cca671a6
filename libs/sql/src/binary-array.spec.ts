import { describeEachDatabase } from '@switchyard/testing';
import type { SqlExecutor } from './sql-executor';
import { boolArray, float8Array, int2Array, int4Array, textArray } from './binary-array';

describeEachDatabase('binary arrays', (database) => {
  let db: SqlExecutor;
  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(() => db.close());

  const read = async (values: readonly (string | null | undefined)[]) => {
    const { rows } = await db.query<{ values: (string | null)[]; n: number }>(
      'SELECT $1::text[] AS values, cardinality($1::text[]) AS n',
      [textArray(values)],
    );
    return rows[0]!;
  };

  it('arrives as exactly the strings given, nulls and awkward text included', async () => {
    const json = JSON.stringify({ quote: '"', backslash: '\\', braces: '{a,b}', nested: [null, 'ü'] });
    const values = ['plain', '', 'NULL', null, '"quoted", {braced}', 'back\\slash', 'ünï 🎉 cödé', json];
    expect(await read(values)).toEqual({ values, n: values.length });
  });

  it('sends numbers and booleans as the element types asked for, nulls included', async () => {
    const { rows } = await db.query<{ f: number[]; i4: number[]; i2: number[]; b: (boolean | null)[] }>(
      'SELECT $1::float8[] AS f, $2::int4[] AS i4, $3::int2[] AS i2, $4::bool[] AS b',
      [
        float8Array([0, -1.5, 1e-300, 12345.678, null, Number.MAX_VALUE]),
        int4Array([0, -2147483648, 2147483647, null]),
        int2Array([0, -32768, 32767]),
        boolArray([true, false, null]),
      ],
    );
    expect(rows[0]).toEqual({
      f: [0, -1.5, 1e-300, 12345.678, null, Number.MAX_VALUE],
      i4: [0, -2147483648, 2147483647, null],
      i2: [0, -32768, 32767],
      b: [true, false, null],
    });
  });

  it('can send an empty array of any element type', async () => {
    const { rows } = await db.query<{ n: number }>(
      'SELECT cardinality($1::float8[]) + cardinality($2::bool[]) + cardinality($3::int2[]) AS n',
      [float8Array([]), boolArray([]), int2Array([])],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('sends undefined as NULL', async () => {
    expect(await read(['a', undefined, 'b'])).toEqual({ values: ['a', null, 'b'], n: 3 });
  });

  it('can be empty, and can carry a long string', async () => {
    expect(await read([])).toEqual({ values: [], n: 0 });
    const long = 'x"\\'.repeat(100_000);
    expect(await read([long])).toEqual({ values: [long], n: 1 });
  });

  it('is stored as jsonb like any text', async () => {
    const doc = { text: 'a\\b\n"c"\t', list: [1, { x: null }] };
    const { rows } = await db.query<{ doc: unknown }>(
      'SELECT d::jsonb AS doc FROM unnest($1::text[]) AS t(d)',
      [textArray([JSON.stringify(doc)])],
    );
    expect(rows).toEqual([{ doc }]);
  });
});
