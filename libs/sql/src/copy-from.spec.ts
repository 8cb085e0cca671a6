import { describeEachDatabase } from '@switchyard/testing';
import { copyField, copyIntArray, copyLine } from './copy-text';
import type { SqlExecutor } from './sql-executor';

it('escapes what COPY text gives a meaning to, and nothing else', () => {
  expect(copyField('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
  expect(copyField('plain "quoted" {x}, é')).toBe('plain "quoted" {x}, é');
  expect(copyField(null)).toBe('\\N');
  expect(copyField(42)).toBe('42');
  expect(copyField(9007199254740993n)).toBe('9007199254740993');
  expect(copyLine(['x', null, 1])).toBe('x\t\\N\t1\n');
  expect(copyIntArray([])).toBe('{}');
  expect(copyIntArray([3, 1])).toBe('{3,1}');
});

describeEachDatabase('copyFrom', (database) => {
  let db: SqlExecutor;
  beforeAll(async () => {
    db = await database.open();
    await db.exec(
      `CREATE TABLE copied (id bigint PRIMARY KEY, label text, at timestamptz, numbers bigint[] NOT NULL, doc json)`,
    );
  });
  afterAll(() => db.close());

  const awkward = ['tab\there', 'line\nbreak', 'carriage\rreturn', 'back\\slash', '\\N', '', 'ünï "cödé"'];

  it('stores every value as given, in a transaction or not', async () => {
    const doc = { text: 'a\\b\n"c"\t', nested: [1, { x: null }] };
    const lines = awkward.map((label, index) =>
      copyLine([index, label, '2026-07-01T10:00:00.123Z', copyIntArray([index, 7]), JSON.stringify(doc)]),
    );
    await db.transaction((tx) =>
      tx.copyFrom('copied', ['id', 'label', 'at', 'numbers', 'doc'], lines.join('')),
    );
    await db.copyFrom('copied', ['id', 'label', 'numbers'], copyLine([100, null, copyIntArray([])]));

    const { rows } = await db.query<{
      id: string;
      label: string | null;
      at: Date | null;
      numbers: string[];
      doc: unknown;
    }>('SELECT id::text AS id, label, at, numbers::text[] AS numbers, doc FROM copied ORDER BY copied.id');
    expect(rows).toEqual([
      ...awkward.map((label, index) => ({
        id: String(index),
        label,
        at: new Date('2026-07-01T10:00:00.123Z'),
        numbers: [String(index), '7'],
        doc,
      })),
      { id: '100', label: null, at: null, numbers: [], doc: null },
    ]);
  });

  it('rolls back with its transaction, and a failed copy leaves the executor usable', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.copyFrom('copied', ['id', 'numbers'], copyLine([200, copyIntArray([])]));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await expect(
      db.copyFrom('copied', ['id', 'numbers'], copyLine(['not a number', '{}'])),
    ).rejects.toThrow();
    await expect(db.copyFrom('copied', ['id', 'numbers'], copyLine([1, '{}']))).rejects.toThrow();
    await db.copyFrom('copied', ['id', 'numbers'], copyLine([300, '{}']));
    const { rows } = await db.query<{ id: string }>(
      'SELECT id::text AS id FROM copied WHERE id >= 200 ORDER BY copied.id',
    );
    expect(rows).toEqual([{ id: '300' }]);
  });
});
