import type { LogEvent } from './queue-narrator';
import { QueueTally } from './queue-tally';

let nextId = 1;
const event = (type: string, pullRequest: number, metadata: Record<string, unknown> = {}): LogEvent => ({
  id: nextId++,
  received_at: '2026-03-02T10:00:00.000Z',
  pull_request: pullRequest,
  type,
  metadata,
});

describe('QueueTally', () => {
  it('has drained once every pull request entered and left', () => {
    const tally = new QueueTally([1, 2]);
    expect(tally.drained()).toBe(false);
    tally.record(event('action.queue.enter', 1));
    tally.record(event('action.queue.enter', 2));
    tally.record(event('action.queue.leave', 1, { merged: true }));
    expect(tally.drained()).toBe(false);
    expect(tally.unsettled()).toEqual([2]);
    tally.record(event('action.queue.leave', 2, { merged: false, dequeue_code: 'CHECKS_FAILED' }));
    expect(tally.drained()).toBe(true);
    expect(tally.progress()).toEqual({ settled: 2, total: 2, merged: 1, dequeued: 1 });
    expect(tally.dequeueCodeOf(2)).toBe('CHECKS_FAILED');
    expect(tally.dequeueCodeOf(1)).toBeNull();
  });

  it('has not drained while a pull request that left came back', () => {
    const tally = new QueueTally([1]);
    tally.record(event('action.queue.enter', 1));
    tally.record(event('action.queue.leave', 1, { merged: false, dequeue_code: 'CHECKS_FAILED' }));
    tally.record(event('action.queue.enter', 1));
    expect(tally.drained()).toBe(false);
    expect(tally.progress().settled).toBe(0);
  });

  it('ignores pull requests that are not the demo’s', () => {
    const tally = new QueueTally([1]);
    tally.record(event('action.queue.enter', 9));
    tally.record(event('action.queue.enter', 1));
    tally.record(event('action.queue.leave', 1, { merged: true }));
    expect(tally.drained()).toBe(true);
  });
});
