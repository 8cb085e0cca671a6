import type { ApplyTestHealth, QuarantineTest } from '../domain/test-quarantine';
import { alice, RecordedQuarantines } from '../testing/recorded-quarantines';
import { quarantineLogMapping } from './quarantine-log-mapping';

const repository = 'acme/widgets';
const testId = '5d6c1a8e-0f2a-5b7c-9d1e-2f3a4b5c6d7e';
const manualId = '00000000-0000-4000-8000-000000000001';
const autoId = '00000000-0000-5000-8000-00000000000a';

const logOf = async (history: RecordedQuarantines) =>
  (await history.all()).flatMap((event) => {
    const mapper = quarantineLogMapping[event.type];
    if (!mapper) throw new Error(`no log mapping for ${event.type}`);
    return mapper(event);
  });

const quarantine: QuarantineTest = {
  type: 'QuarantineTest',
  repository,
  quarantineId: manualId,
  testName: 'test_login',
  testId,
  reason: 'flaky',
  branch: 'main',
  unquarantineWhenHealthy: true,
  health: 'flaky',
  actor: alice,
  at: new Date('2026-03-02T10:00:00Z'),
};

const health = (h: 'healthy' | 'flaky', at: string): ApplyTestHealth => ({
  type: 'ApplyTestHealth',
  repository,
  tests: [
    {
      testName: 'test_login',
      testId,
      identities: [{ pipelineName: 'ci', jobName: 'unit', health: h }],
      autoQuarantineIds: [autoId],
    },
  ],
  at: new Date(at),
});

const repositoryLevel = { repository, pullRequest: null, baseRef: null };

describe('quarantine log mapping', () => {
  it('logs a manual quarantine and its automatic lifting with the spec metadata', async () => {
    const history = new RecordedQuarantines();
    await history.run(quarantine);
    await history.run(health('healthy', '2026-03-03T10:00:00Z'));
    expect(await logOf(history)).toEqual([
      {
        ...repositoryLevel,
        type: 'test.quarantined',
        trigger: 'api',
        receivedAt: new Date('2026-03-02T10:00:00Z'),
        metadata: {
          quarantine_id: manualId,
          test_id: testId,
          test_name: 'test_login',
          source: 'manual',
          reason: 'flaky',
          branch: 'main',
          quarantined_at: '2026-03-02T10:00:00.000Z',
          health_status_at_event: 'flaky',
          quarantined_by: alice,
          quarantined_by_staff: false,
        },
      },
      {
        ...repositoryLevel,
        type: 'test.dequarantined',
        trigger: 'auto_quarantine',
        receivedAt: new Date('2026-03-03T10:00:00Z'),
        metadata: {
          quarantine_id: manualId,
          test_id: testId,
          test_name: 'test_login',
          source: 'auto',
          original_quarantine: {
            source: 'manual',
            reason: 'flaky',
            branch: 'main',
            created_at: '2026-03-02T10:00:00.000Z',
            health_status_at_event: 'flaky',
          },
          health_status_at_event: 'healthy',
          dequarantined_at: '2026-03-03T10:00:00.000Z',
          dequarantined_by: null,
          dequarantined_by_staff: false,
        },
      },
    ]);
  });

  it('logs an automatic quarantine without an actor, and the switch changes with theirs', async () => {
    const history = new RecordedQuarantines();
    const configure = (enabled: boolean, ignoreBrokenOnDefaultBranch: boolean, at: string) =>
      history.run({
        type: 'ConfigureAutoQuarantine',
        repository,
        enabled,
        ignoreBrokenOnDefaultBranch,
        actor: alice,
        at: new Date(at),
      });
    await configure(true, false, '2026-03-01T00:00:00Z');
    await history.run(health('flaky', '2026-03-02T00:00:00Z'));
    await configure(true, true, '2026-03-03T00:00:00Z');
    await configure(false, true, '2026-03-04T00:00:00Z');
    const log = await logOf(history);
    expect(log.map((record) => [record.type, record.trigger])).toEqual([
      ['ci_insights.auto_quarantine.enabled', 'api'],
      ['test.quarantined', 'auto_quarantine'],
      ['ci_insights.auto_quarantine.modified', 'api'],
      ['ci_insights.auto_quarantine.disabled', 'api'],
    ]);
    expect(log[0]!.metadata).toEqual({
      enabled_by: alice,
      enabled_by_staff: false,
      enabled_at: '2026-03-01T00:00:00.000Z',
      auto_quarantine_config_attributes: { ignore_broken_on_default_branch: false },
    });
    expect(log[1]!.metadata).toMatchObject({
      quarantine_id: autoId,
      source: 'auto',
      branch: null,
      health_status_at_event: 'flaky',
      quarantined_by: null,
      quarantined_by_staff: false,
    });
    expect(log[2]!.metadata).toEqual({
      updated_by: alice,
      updated_by_staff: false,
      updated_at: '2026-03-03T00:00:00.000Z',
      auto_quarantine_config_attributes_before: { ignore_broken_on_default_branch: false },
      auto_quarantine_config_attributes_after: { ignore_broken_on_default_branch: true },
    });
    expect(log[3]!.metadata).toEqual({
      disabled_by: alice,
      disabled_by_staff: false,
      disabled_at: '2026-03-04T00:00:00.000Z',
      auto_quarantine_config_attributes: { ignore_broken_on_default_branch: true },
    });
  });
});
