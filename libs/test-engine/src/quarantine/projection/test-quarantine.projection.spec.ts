import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import type { QuarantineTest } from '../domain/test-quarantine';
import { alice, RecordedQuarantines } from '../testing/recorded-quarantines';
import { isQuarantinedIdentitySql } from './quarantined-identity.sql';
import { QUARANTINE_TABLE, testQuarantineProjection } from './test-quarantine.projection';
import {
  autoQuarantineSettings,
  findActiveQuarantine,
  listActiveQuarantines,
  quarantinedTestNames,
} from './test-quarantine.read-model';

const repository = 'acme/widgets';
const testId = '5d6c1a8e-0f2a-5b7c-9d1e-2f3a4b5c6d7e';
const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

const quarantine = (n: number, overrides: Partial<QuarantineTest> = {}): QuarantineTest => ({
  type: 'QuarantineTest',
  repository,
  quarantineId: id(n),
  testName: `test_${n}`,
  testId,
  reason: `reason ${n}`,
  branch: null,
  unquarantineWhenHealthy: false,
  health: null,
  actor: alice,
  at: new Date(`2026-03-0${n}T10:00:00Z`),
  ...overrides,
});

describeEachDatabase('test quarantine projection', (db) => {
  let sql: SqlExecutor;
  let history: RecordedQuarantines;

  beforeAll(async () => {
    sql = await db.open();
    await sql.transaction((tx) => testQuarantineProjection.setup(tx));
  });
  afterAll(() => sql.close());
  beforeEach(async () => {
    await sql.transaction((tx) => testQuarantineProjection.reset(tx));
    history = new RecordedQuarantines();
  });

  const project = async () => {
    const events = await history.all();
    await sql.transaction((tx) => testQuarantineProjection.apply(tx, events));
  };

  it('lists active quarantines in creation order, without the lifted ones', async () => {
    await history.run(quarantine(2));
    await history.run(quarantine(1, { branch: 'main', unquarantineWhenHealthy: true }));
    await history.run(quarantine(3));
    await history.run({
      type: 'DequarantineTest',
      repository,
      quarantineId: id(3),
      identities: [],
      actor: alice,
      at: new Date('2026-03-04T00:00:00Z'),
    });
    await project();
    expect(await listActiveQuarantines(sql, repository)).toEqual([
      {
        id: id(1),
        testName: 'test_1',
        testId,
        reason: 'reason 1',
        branch: 'main',
        pipelineName: null,
        jobName: null,
        source: 'manual',
        unquarantineWhenHealthy: true,
        createdAt: '2026-03-01T10:00:00.000Z',
      },
      expect.objectContaining({ id: id(2), branch: null, createdAt: '2026-03-02T10:00:00.000Z' }),
    ]);
    expect(await findActiveQuarantine(sql, repository, id(3))).toBeNull();
    expect(await findActiveQuarantine(sql, 'acme/other', id(1))).toBeNull();
  });

  it('applying the same events twice changes nothing', async () => {
    await history.run(quarantine(1));
    await history.run({
      type: 'DequarantineTest',
      repository,
      quarantineId: id(1),
      identities: [],
      actor: alice,
      at: new Date('2026-03-04T00:00:00Z'),
    });
    await project();
    const once = (await sql.query(`SELECT * FROM ${QUARANTINE_TABLE} ORDER BY id`)).rows;
    await project();
    expect((await sql.query(`SELECT * FROM ${QUARANTINE_TABLE} ORDER BY id`)).rows).toEqual(once);
    expect(once).toHaveLength(1);
  });

  it('applies the all-scope rule to branch filters, and the deprecated branch filter keeps every-branch ones', async () => {
    await history.run(quarantine(1, { branch: 'main' }));
    await history.run(quarantine(2, { branch: 'dev' }));
    await history.run(quarantine(3));
    await project();
    const ids = async (filters: Parameters<typeof listActiveQuarantines>[2]) =>
      (await listActiveQuarantines(sql, repository, filters)).map((row) => row.id);
    expect(await ids({ branchNames: ['main'] })).toEqual([id(1), id(3)]);
    expect(await ids({ branchNamesExcluded: ['main'] })).toEqual([id(2), id(3)]);
    expect(await ids({ branch: 'dev' })).toEqual([id(2), id(3)]);
    expect(await ids({ pipelineNames: ['ci'] })).toEqual([id(1), id(2), id(3)]);
    expect(await ids({ testNames: ['test_2'], sources: ['manual'] })).toEqual([id(2)]);
    expect(await ids({ testNamesExcluded: ['test_2'], sources: ['auto'] })).toEqual([]);
    expect(
      [...(await quarantinedTestNames(sql, repository, ['test_1', 'test_2', 'test_3', 'x'], 'main'))].sort(),
    ).toEqual(['test_1', 'test_3']);
  });

  it('answers is_quarantined for an identity in another query', async () => {
    await history.run(quarantine(1, { testName: 'login' }));
    await history.run(quarantine(2, { testName: 'logout', branch: 'dev' }));
    await project();
    const { rows } = await sql.query<{ name: string; quarantined: boolean }>(
      `SELECT t.name, ${isQuarantinedIdentitySql({
        repository: '$1',
        testName: 't.name',
        pipelineName: "'ci'",
        jobName: "'unit'",
      })} AS quarantined
       FROM (VALUES ('login'), ('logout'), ('other')) AS t(name) ORDER BY t.name`,
      [repository],
    );
    expect(rows).toEqual([
      { name: 'login', quarantined: true },
      { name: 'logout', quarantined: false },
      { name: 'other', quarantined: false },
    ]);
  });

  it('keeps the auto-quarantine switch per repository', async () => {
    expect(await autoQuarantineSettings(sql, repository)).toEqual({
      enabled: false,
      ignoreBrokenOnDefaultBranch: false,
    });
    const configure = (enabled: boolean, ignoreBrokenOnDefaultBranch: boolean) =>
      history.run({
        type: 'ConfigureAutoQuarantine',
        repository,
        enabled,
        ignoreBrokenOnDefaultBranch,
        actor: alice,
        at: new Date('2026-03-01T00:00:00Z'),
      });
    await configure(true, false);
    await configure(true, true);
    await project();
    expect(await autoQuarantineSettings(sql, repository)).toEqual({
      enabled: true,
      ignoreBrokenOnDefaultBranch: true,
    });
    await configure(false, true);
    await project();
    expect((await autoQuarantineSettings(sql, repository)).enabled).toBe(false);
  });
});
