import {
  checksReported,
  command,
  configure,
  enqueue,
  minutes,
  policyWith,
  run,
  stateOf,
  then,
  withDrafts,
} from '../testing/queue-commands';
import { batchStatusOf, queuePositionOf, waitingBatchOf } from './presentation';

describe('merge queue as the status endpoints read it', () => {
  const statuses = (events: Parameters<typeof stateOf>[0]) => {
    const state = stateOf(events);
    return state.batches.map((b) => [b.pullRequests, batchStatusOf(state, b)]);
  };

  it('follows a batch from preparing to running to waiting for merge, frozen while a freeze holds it', () => {
    const prepared = run([
      configure(policyWith({ maxParallelChecks: 2 })),
      enqueue(1, 0),
      enqueue(2, 0),
    ]).events;
    expect(statuses(prepared)).toEqual([
      [[1], 'preparing'],
      [[2], 'preparing'],
    ]);
    const running = withDrafts(prepared, 1);
    const passed = then(running, checksReported(running, 2, 30, 'success'));
    expect(statuses(passed)).toEqual([
      [[1], 'running'],
      [[2], 'waiting_for_merge'],
    ]);
    expect(statuses(then(passed, command('set_frozen', 31, { pullRequests: [2] })))).toContainEqual([
      [2],
      'frozen',
    ]);
  });

  it('shows a failure behind running checks as waiting for the previous batches, and the splits of a bisection', () => {
    const running = withDrafts(
      run([configure(policyWith({ maxParallelChecks: 2 })), enqueue(1, 0), enqueue(2, 0)]).events,
      1,
    );
    expect(statuses(then(running, checksReported(running, 2, 20, 'failure')))).toContainEqual([
      [2],
      'waiting_for_previous_batches',
    ]);
    const batch = withDrafts(
      run([
        configure(policyWith({ maxParallelChecks: 1 }, { batchSize: 3 })),
        enqueue(1, 0),
        enqueue(2, 0),
        enqueue(3, 0),
      ]).events,
      1,
    );
    expect(statuses(then(batch, checksReported(batch, 1, 30, 'failure')))).toEqual([
      [[1], 'preparing'],
      [[2], 'waiting_for_checks_slot'],
      [[3], 'waiting_for_previous_batches'],
    ]);
  });

  it('numbers positions over embarked then waiting pull requests, and describes the batch being filled', () => {
    const policy = policyWith({ maxParallelChecks: 1 }, { batchSize: 3, batchMaxWaitTime: 120 });
    const events = run([
      configure(policy),
      enqueue(1, 0),
      enqueue(2, 0),
      enqueue(3, 0),
      enqueue(4, 1),
      enqueue(5, 1.5),
    ]).events;
    const state = stateOf(events);
    expect([1, 2, 3, 4, 5, 6].map((n) => queuePositionOf(state, n))).toEqual([0, 1, 2, 3, 4, -1]);
    expect(waitingBatchOf(state, 5)).toEqual({ filledSlots: 2, maxSlots: 3, startAt: minutes(3) });
    expect(waitingBatchOf(state, 1)).toBeNull();
  });
});
