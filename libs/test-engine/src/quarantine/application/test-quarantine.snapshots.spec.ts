import { alice, RecordedQuarantines } from '../testing/recorded-quarantines';
import type { TestQuarantineEvent } from '../domain/test-quarantine';
import { quarantineCommandDecider } from './test-quarantine.snapshots';

const repository = 'acme/widgets';

describe('quarantine snapshots', () => {
  it('a state read back from its JSON snapshot decides as the folded one', async () => {
    const history = new RecordedQuarantines();
    const at = new Date('2026-03-02T10:00:00Z');
    await history.run({
      type: 'ConfigureAutoQuarantine',
      repository,
      enabled: true,
      ignoreBrokenOnDefaultBranch: true,
      actor: alice,
      at,
    });
    for (const n of [1, 2, 3]) {
      await history.run({
        type: 'QuarantineTest',
        repository,
        quarantineId: `00000000-0000-4000-8000-00000000000${n}`,
        testName: `test_${n}`,
        testId: '5d6c1a8e-0f2a-5b7c-9d1e-2f3a4b5c6d7e',
        reason: 'r',
        branch: n === 2 ? 'main' : null,
        unquarantineWhenHealthy: n === 3,
        health: null,
        actor: alice,
        at,
      });
    }
    const events = (await history.all()).map((e) => ({ type: e.type, data: e.data }) as TestQuarantineEvent);
    const folded = events.reduce(quarantineCommandDecider.evolve, quarantineCommandDecider.initialState());
    const policy = quarantineCommandDecider.snapshots!;
    const restored = policy.fromSnapshot(JSON.parse(JSON.stringify(policy.toSnapshot(folded))));
    expect(restored).toEqual(folded);
    const command = {
      type: 'ApplyTestHealth' as const,
      repository,
      tests: [
        {
          testName: 'test_3',
          testId: '5d6c1a8e-0f2a-5b7c-9d1e-2f3a4b5c6d7e',
          identities: [{ pipelineName: 'ci', jobName: 'unit', health: 'healthy' as const }],
          autoQuarantineIds: ['00000000-0000-5000-8000-00000000000a'],
        },
      ],
      at,
    };
    expect(quarantineCommandDecider.decide(command, restored)).toEqual(
      quarantineCommandDecider.decide(command, folded),
    );
    expect(quarantineCommandDecider.decide(command, restored)).toHaveLength(1);
  });
});
