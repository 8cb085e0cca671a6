import { type Actor, DomainError } from '@switchyard/kernel';
import { DeciderSpecification } from '@switchyard/testing';
import {
  type ApplyTestHealth,
  type QuarantineTest,
  type TestHealthUpdate,
  type TestQuarantined,
  testQuarantineDecider,
  type TestQuarantineEvent,
} from './test-quarantine';

const spec = DeciderSpecification.for(testQuarantineDecider);
const repository = 'acme/widgets';
const alice: Actor = { type: 'user', id: 42, name: 'alice' };
const testId = '5d6c1a8e-0f2a-5b7c-9d1e-2f3a4b5c6d7e';
const ids = {
  manual: '00000000-0000-4000-8000-000000000001',
  other: '00000000-0000-4000-8000-000000000002',
  autoA: '00000000-0000-5000-8000-00000000000a',
  autoB: '00000000-0000-5000-8000-00000000000b',
};
const t0 = new Date('2026-03-02T10:00:00Z');
const t1 = new Date('2026-03-03T10:00:00Z');

const quarantine = (overrides: Partial<QuarantineTest> = {}): QuarantineTest => ({
  type: 'QuarantineTest',
  repository,
  quarantineId: ids.manual,
  testName: 'tests/test_login.py::test_login',
  testId,
  reason: 'flaky on CI',
  branch: null,
  unquarantineWhenHealthy: false,
  health: 'flaky',
  actor: alice,
  at: t0,
  ...overrides,
});

const quarantined = (overrides: Partial<TestQuarantined['data']> = {}): TestQuarantined => ({
  type: 'test_quarantine.quarantined',
  data: {
    quarantineId: ids.manual,
    testName: 'tests/test_login.py::test_login',
    testId,
    reason: 'flaky on CI',
    branch: null,
    pipelineName: null,
    jobName: null,
    source: 'manual',
    unquarantineWhenHealthy: false,
    healthAtEvent: 'flaky',
    repository,
    actor: alice,
    at: t0.toISOString(),
    ...overrides,
  },
});

const record = (event: TestQuarantined) => {
  const { repository: _r, actor: _a, at, ...rest } = event.data;
  return { ...rest, createdAt: at };
};

const health = (
  identities: TestHealthUpdate['identities'],
  autoQuarantineIds: string[] = [ids.autoA, ids.autoB],
): ApplyTestHealth => ({
  type: 'ApplyTestHealth',
  repository,
  tests: [{ testName: 'tests/test_login.py::test_login', testId, identities, autoQuarantineIds }],
  at: t1,
});

const enabled = (ignoreBrokenOnDefaultBranch: boolean): TestQuarantineEvent => ({
  type: 'test_quarantine.auto_quarantine_enabled',
  data: { repository, settings: { ignoreBrokenOnDefaultBranch }, actor: alice, at: t0.toISOString() },
});

describe('test quarantines', () => {
  describe('quarantine a test', () => {
    it('records a manual quarantine over every pipeline and job', () => {
      spec.given([]).when(quarantine()).then([quarantined()]);
    });

    it('refuses a duplicate of an active quarantine with a 409 naming the test', () => {
      spec
        .given([quarantined()])
        .when(quarantine({ quarantineId: ids.other }))
        .thenThrows(DomainError, "Test 'tests/test_login.py::test_login' is already quarantined");
    });

    it('takes the same test again on another branch, or once lifted', () => {
      spec
        .given([quarantined()])
        .when(quarantine({ quarantineId: ids.other, branch: 'release/1.x' }))
        .then([quarantined({ quarantineId: ids.other, branch: 'release/1.x' })]);
      const lifted: TestQuarantineEvent = {
        type: 'test_quarantine.dequarantined',
        data: {
          quarantineId: ids.manual,
          repository,
          source: 'manual',
          original: record(quarantined()),
          healthAtEvent: null,
          actor: alice,
          at: t0.toISOString(),
        },
      };
      spec
        .given([quarantined(), lifted])
        .when(quarantine({ quarantineId: ids.other }))
        .then([quarantined({ quarantineId: ids.other })]);
    });

    it('refuses a test name longer than 10000 characters', () => {
      spec
        .given([])
        .when(quarantine({ testName: 'x'.repeat(10001) }))
        .thenThrows(DomainError, /test_name/);
    });
  });

  describe('dequarantine a test', () => {
    it('lifts an active quarantine with the health of its scope now', () => {
      spec
        .given([quarantined()])
        .when({
          type: 'DequarantineTest',
          repository,
          quarantineId: ids.manual,
          identities: [
            { pipelineName: 'ci', jobName: 'unit', health: 'healthy' },
            { pipelineName: 'ci', jobName: 'e2e', health: 'broken' },
          ],
          actor: alice,
          at: t1,
        })
        .then([
          {
            type: 'test_quarantine.dequarantined',
            data: {
              quarantineId: ids.manual,
              repository,
              source: 'manual',
              original: record(quarantined()),
              healthAtEvent: 'broken',
              actor: alice,
              at: t1.toISOString(),
            },
          },
        ]);
    });

    it('answers 404 for an unknown or already lifted quarantine', () => {
      const lift = {
        type: 'DequarantineTest' as const,
        repository,
        quarantineId: ids.manual,
        identities: [],
        actor: alice,
        at: t1,
      };
      spec.given([]).when(lift).thenThrows(DomainError, 'The quarantine with the given id does not exist');
      spec
        .given([
          quarantined(),
          {
            type: 'test_quarantine.dequarantined',
            data: {
              quarantineId: ids.manual,
              repository,
              source: 'manual',
              original: record(quarantined()),
              healthAtEvent: null,
              actor: alice,
              at: t0.toISOString(),
            },
          },
        ])
        .when(lift)
        .thenThrows(DomainError, /does not exist/);
    });
  });

  describe('auto-quarantine settings', () => {
    const configure = (enabledNow: boolean, ignoreBrokenOnDefaultBranch: boolean) => ({
      type: 'ConfigureAutoQuarantine' as const,
      repository,
      enabled: enabledNow,
      ignoreBrokenOnDefaultBranch,
      actor: alice,
      at: t0,
    });

    it('enables, modifies and disables, each once', () => {
      spec
        .given([])
        .when(configure(true, false))
        .then([enabled(false)]);
      spec
        .given([enabled(false)])
        .when(configure(true, false))
        .thenNothingHappened();
      spec
        .given([enabled(false)])
        .when(configure(true, true))
        .then([
          {
            type: 'test_quarantine.auto_quarantine_modified',
            data: {
              repository,
              before: { ignoreBrokenOnDefaultBranch: false },
              after: { ignoreBrokenOnDefaultBranch: true },
              actor: alice,
              at: t0.toISOString(),
            },
          },
        ]);
      spec
        .given([enabled(true)])
        .when(configure(false, false))
        .then([
          {
            type: 'test_quarantine.auto_quarantine_disabled',
            data: {
              repository,
              settings: { ignoreBrokenOnDefaultBranch: true },
              actor: alice,
              at: t0.toISOString(),
            },
          },
        ]);
      spec.given([]).when(configure(false, true)).thenNothingHappened();
    });
  });

  describe('test health changes', () => {
    it('lifts a quarantine that asked for it once every identity it covers is healthy', () => {
      const asked = quarantined({ unquarantineWhenHealthy: true });
      spec
        .given([asked])
        .when(
          health([
            { pipelineName: 'ci', jobName: 'unit', health: 'healthy' },
            { pipelineName: 'ci', jobName: 'e2e', health: 'flaky' },
          ]),
        )
        .thenNothingHappened();
      spec
        .given([asked])
        .when(health([{ pipelineName: 'ci', jobName: 'unit', health: 'healthy' }]))
        .then([
          {
            type: 'test_quarantine.dequarantined',
            data: {
              quarantineId: ids.manual,
              repository,
              source: 'auto',
              original: record(asked),
              healthAtEvent: 'healthy',
              actor: null,
              at: t1.toISOString(),
            },
          },
        ]);
    });

    it('keeps a quarantine that did not ask to be lifted, and one without recent runs', () => {
      spec
        .given([quarantined()])
        .when(health([{ pipelineName: 'ci', jobName: 'unit', health: 'healthy' }]))
        .thenNothingHappened();
      spec
        .given([quarantined({ unquarantineWhenHealthy: true })])
        .when(health([]))
        .thenNothingHappened();
    });

    it('does nothing for unhealthy tests while auto-quarantine is off', () => {
      spec
        .given([])
        .when(health([{ pipelineName: 'ci', jobName: 'unit', health: 'flaky' }]))
        .thenNothingHappened();
    });

    const autoQuarantined = (jobName: string, reasonHealth: 'flaky' | 'broken', id: string) =>
      quarantined({
        quarantineId: id,
        reason: `Automatically quarantined: ${reasonHealth} on the default branch`,
        pipelineName: 'ci',
        jobName,
        source: 'auto',
        unquarantineWhenHealthy: true,
        healthAtEvent: reasonHealth,
        actor: null,
        at: t1.toISOString(),
      });

    it('auto-quarantines flaky identities, and broken ones only with ignore_broken_on_default_branch', () => {
      const identities = [
        { pipelineName: 'ci', jobName: 'unit', health: 'flaky' as const },
        { pipelineName: 'ci', jobName: 'e2e', health: 'broken' as const },
      ];
      spec
        .given([enabled(false)])
        .when(health(identities))
        .then([autoQuarantined('unit', 'flaky', ids.autoA)]);
      spec
        .given([enabled(true)])
        .when(health(identities))
        .then([autoQuarantined('unit', 'flaky', ids.autoA), autoQuarantined('e2e', 'broken', ids.autoB)]);
    });

    it('decides for every test of one upload in one command', () => {
      const asked = quarantined({ unquarantineWhenHealthy: true });
      const events = testQuarantineDecider.decide(
        {
          type: 'ApplyTestHealth',
          repository,
          tests: [
            {
              testName: 'tests/test_login.py::test_login',
              testId,
              identities: [{ pipelineName: 'ci', jobName: 'unit', health: 'healthy' }],
              autoQuarantineIds: [ids.autoA],
            },
            {
              testName: 'test_other',
              testId,
              identities: [{ pipelineName: 'ci', jobName: 'unit', health: 'flaky' }],
              autoQuarantineIds: [ids.autoB],
            },
          ],
          at: t1,
        },
        [enabled(false), asked].reduce(testQuarantineDecider.evolve, testQuarantineDecider.initialState()),
      );
      expect(
        events.map((event) => [event.type, 'quarantineId' in event.data && event.data.quarantineId]),
      ).toEqual([
        ['test_quarantine.dequarantined', ids.manual],
        ['test_quarantine.quarantined', ids.autoB],
      ]);
    });

    it('does not auto-quarantine an identity already quarantined on every branch', () => {
      spec
        .given([enabled(false), quarantined()])
        .when(health([{ pipelineName: 'ci', jobName: 'unit', health: 'flaky' }]))
        .thenNothingHappened();
      spec
        .given([enabled(false), autoQuarantined('unit', 'flaky', ids.autoA)])
        .when(health([{ pipelineName: 'ci', jobName: 'unit', health: 'flaky' }], [ids.autoB]))
        .thenNothingHappened();
    });
  });
});
