import { QueueNarrator, type LogEvent } from './queue-narrator';

let nextId = 1;
const event = (
  type: string,
  pullRequest: number | null,
  metadata: Record<string, unknown>,
  at = '2026-03-02T10:00:00.000Z',
): LogEvent => ({
  id: nextId++,
  received_at: at,
  pull_request: pullRequest,
  type,
  metadata,
});

const check = (conclusion: string, number = 12) => ({
  number,
  in_place: false,
  checks_conclusion: conclusion,
});

describe('QueueNarrator', () => {
  it('tells an entry, a merge and a dequeue with its code and reason', () => {
    const narrator = new QueueNarrator();
    expect(narrator.narrate(event('action.queue.enter', 3, { queue_name: 'default' }))).toMatchObject({
      kind: 'entered',
      text: '#3 entered the queue "default"',
    });
    expect(narrator.narrate(event('action.queue.merged', 3, {}))?.text).toBe('#3 merged');
    expect(
      narrator.narrate(
        event('action.queue.leave', 4, {
          merged: false,
          dequeue_code: 'CHECKS_FAILED',
          reason: 'checks failed',
        }),
      ),
    ).toMatchObject({ kind: 'dequeued', text: '#4 dequeued (CHECKS_FAILED): checks failed' });
  });

  it('says nothing of the departure of a merged pull request, nor of bookkeeping records', () => {
    const narrator = new QueueNarrator();
    expect(narrator.narrate(event('action.queue.leave', 3, { merged: true, reason: 'merged' }))).toBeNull();
    expect(narrator.narrate(event('action.queue.change', null, { size: 2 }))).toBeNull();
  });

  it('tells once what the log records once per pull request of a batch', () => {
    const narrator = new QueueNarrator();
    const metadata = { pull_request_numbers: [1, 2], speculative_check_pull_request: check('pending') };
    const told = [1, 2].map((n) => narrator.narrate(event('action.queue.checks_start', n, metadata)));
    expect(told.map((t) => t?.text ?? null)).toEqual(['checks started for #1 #2 on draft #12', null]);
    // The same batch checked again later (a retry) is another thing to tell.
    const later = event('action.queue.checks_start', 1, metadata, '2026-03-02T10:01:00.000Z');
    expect(narrator.narrate(later)?.text).toBe('checks started for #1 #2 on draft #12');
  });

  it('tells how checks ended: passed, failed, or stopped with the reason', () => {
    const narrator = new QueueNarrator();
    const ended = (n: number, metadata: Record<string, unknown>) =>
      narrator.narrate(event('action.queue.checks_end', n, { pull_request_numbers: [n], ...metadata }))?.text;
    expect(ended(1, { aborted: false, speculative_check_pull_request: check('success', 5) })).toBe(
      'checks of #1 passed',
    );
    expect(ended(2, { aborted: false, speculative_check_pull_request: check('failure', 6) })).toBe(
      'checks of #2 failed',
    );
    expect(
      ended(3, {
        aborted: true,
        abort_reason: 'A pull request ahead was dequeued',
        speculative_check_pull_request: check('cancelled', 7),
      }),
    ).toBe('checks of #3 stopped: A pull request ahead was dequeued');
  });

  it('tells a bisection from its start to its culprit', () => {
    const narrator = new QueueNarrator();
    const batch = { original_batch_pr_numbers: [1, 2, 3], train_car_id: 'car' };
    expect(
      narrator.narrate(
        event('action.queue.batch_bisection_start', 1, {
          ...batch,
          number_of_sub_batches: 2,
          bisection_depth: 1,
        }),
      )?.text,
    ).toBe('bisecting #1 #2 #3 into 2 sub-batches');
    expect(
      narrator.narrate(
        event('action.queue.batch_bisection_end', 1, {
          ...batch,
          culprit_found: true,
          culprit_pr_numbers: [3],
        }),
      )?.text,
    ).toBe('bisection of #1 #2 #3 found the culprit: #3');
  });
});
