import { defaultQueuePolicy } from '../domain/policy';
import { simulate } from '../simulation/simulate';
import { mergeQueueStreamId, snapshottingMergeQueueDecider } from './merge-queue.stream';

describe('merge-queue stream', () => {
  it('is one stream per repository and base branch', () => {
    expect(mergeQueueStreamId('Acme/Mono', 'main')).toBe('merge_queue-acme/mono-main');
    expect(mergeQueueStreamId('acme/mono', 'release/1')).not.toBe(mergeQueueStreamId('acme/mono', 'main'));
  });

  it('a snapshot restores a state that decides exactly as the folded one', () => {
    const policy = defaultQueuePolicy();
    policy.rules[0] = { ...policy.rules[0]!, batchSize: 3, maxChecksRetries: 1 };
    const { events } = simulate(
      policy,
      {
        arrivals: { kind: 'poisson', perHour: 12 },
        ci: { minutes: 20, spread: 0.3, shape: 'uniform' },
        failureRate: 0.15,
        flakeRate: 0.05,
        scopes: null,
        hours: 6,
        drainHours: 24,
        seed: 11,
      },
      { keepEvents: true },
    );
    const { snapshots } = snapshottingMergeQueueDecider;
    let state = snapshottingMergeQueueDecider.initialState();
    for (const [index, event] of events.entries()) {
      state = snapshottingMergeQueueDecider.evolve(state, event);
      if (index % 25 !== 0) continue;
      const restored = snapshots!.fromSnapshot(JSON.parse(JSON.stringify(snapshots!.toSnapshot(state))));
      expect(restored).toEqual(state);
      const tick = {
        kind: 'tick' as const,
        repository: 'simulated/repository',
        baseRef: 'main',
        at: state.lastAt + 3_600_000,
      };
      expect(snapshottingMergeQueueDecider.decide(tick, restored)).toEqual(
        snapshottingMergeQueueDecider.decide(tick, state),
      );
    }
    expect(events.length).toBeGreaterThan(200);
  });
});
