import { describeEachDatabase } from '@switchyard/testing';
import type { SqlExecutor } from './sql-executor';
import { textArray } from './text-array';

describeEachDatabase('textArray', (database) => {
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
