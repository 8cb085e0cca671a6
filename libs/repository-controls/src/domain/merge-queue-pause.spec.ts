import { type Actor, DomainError } from '@switchyard/kernel';
import { DeciderSpecification } from '@switchyard/testing';
import { mergeQueuePauseDecider, type MergeQueuePauseEvent, NOT_PAUSED_MESSAGE } from './merge-queue-pause';

const spec = DeciderSpecification.for(mergeQueuePauseDecider);
const repository = 'acme/widgets';
const alice: Actor = { type: 'user', id: 42, name: 'alice' };
const ci: Actor = { type: 'application', id: '6f1c2a9e-2f4b-4a55-9c55-1b2b3c4d5e6f', name: 'deploy bot' };
const t1 = new Date('2026-04-23T12:34:56Z');
const t2 = new Date('2026-04-23T13:00:00Z');

const paused: MergeQueuePauseEvent = {
  type: 'merge_queue.paused',
  data: { repository, reason: 'incident', actor: alice, at: t1.toISOString() },
};

describe('merge-queue pause decider', () => {
  describe('when not paused', () => {
    it('pauses with the reason, the actor and the command time', () =>
      spec
        .given([])
        .when({ type: 'PauseMergeQueue', repository, reason: 'incident', actor: alice, at: t1 })
        .then([paused]));

    it('refuses to unpause with the detail the CLI recognises', () => {
      const error = spec
        .given([])
        .when({ type: 'UnpauseMergeQueue', repository, actor: alice, at: t2 })
        .thenThrows(DomainError, NOT_PAUSED_MESSAGE);
      expect((error as DomainError).kind).toBe('not_found');
    });

    it('counts the 255-character limit in code points, not UTF-16 units', () => {
      const emoji = '🚀'.repeat(255);
      expect(emoji.length).toBe(510);
      spec
        .given([])
        .when({ type: 'PauseMergeQueue', repository, reason: emoji, actor: alice, at: t1 })
        .then([
          {
            type: 'merge_queue.paused',
            data: { repository, reason: emoji, actor: alice, at: t1.toISOString() },
          },
        ]);
    });

    it('refuses a reason longer than 255 code points', () => {
      const error = spec
        .given([])
        .when({ type: 'PauseMergeQueue', repository, reason: 'x'.repeat(256), actor: alice, at: t1 })
        .thenThrows(DomainError, /at most 255/);
      expect((error as DomainError).kind).toBe('unprocessable');
    });
  });

  describe('when paused', () => {
    it('changes the reason and keeps the original paused_at', () =>
      spec
        .given([paused])
        .when({ type: 'PauseMergeQueue', repository, reason: 'still investigating', actor: ci, at: t2 })
        .then([
          {
            type: 'merge_queue.pause_reason_changed',
            data: {
              repository,
              reason: 'still investigating',
              pausedAt: t1.toISOString(),
              actor: ci,
              at: t2.toISOString(),
            },
          },
        ]));

    it('keeps the first paused_at across several reason changes', () =>
      spec
        .given([
          paused,
          {
            type: 'merge_queue.pause_reason_changed',
            data: { repository, reason: 'b', pausedAt: t1.toISOString(), actor: ci, at: t2.toISOString() },
          },
        ])
        .when({
          type: 'PauseMergeQueue',
          repository,
          reason: 'c',
          actor: alice,
          at: new Date('2026-04-23T14:00:00Z'),
        })
        .then([
          {
            type: 'merge_queue.pause_reason_changed',
            data: {
              repository,
              reason: 'c',
              pausedAt: t1.toISOString(),
              actor: alice,
              at: '2026-04-23T14:00:00.000Z',
            },
          },
        ]));

    it('records a repeated identical reason as an update, so the log shows who re-affirmed it', () =>
      spec
        .given([paused])
        .when({ type: 'PauseMergeQueue', repository, reason: 'incident', actor: alice, at: t2 })
        .then([
          {
            type: 'merge_queue.pause_reason_changed',
            data: {
              repository,
              reason: 'incident',
              pausedAt: t1.toISOString(),
              actor: alice,
              at: t2.toISOString(),
            },
          },
        ]));

    it('records a command whose clock reading lost the race at the time of the event it follows', () =>
      // A request that read the clock first but appended second is re-decided on fresh state.
      spec
        .given([paused])
        .when({
          type: 'PauseMergeQueue',
          repository,
          reason: 'late',
          actor: ci,
          at: new Date('2026-04-23T12:34:55.900Z'),
        })
        .then([
          {
            type: 'merge_queue.pause_reason_changed',
            data: { repository, reason: 'late', pausedAt: t1.toISOString(), actor: ci, at: t1.toISOString() },
          },
        ]));

    it('unpauses', () =>
      spec
        .given([paused])
        .when({ type: 'UnpauseMergeQueue', repository, actor: ci, at: t2 })
        .then([{ type: 'merge_queue.unpaused', data: { repository, actor: ci, at: t2.toISOString() } }]));
  });

  describe('when unpaused again', () => {
    const unpaused: MergeQueuePauseEvent = {
      type: 'merge_queue.unpaused',
      data: { repository, actor: ci, at: t2.toISOString() },
    };

    it('a new pause is a fresh pause with a new paused_at', () =>
      spec
        .given([paused, unpaused])
        .when({
          type: 'PauseMergeQueue',
          repository,
          reason: 'release',
          actor: alice,
          at: new Date('2026-04-24T08:00:00Z'),
        })
        .then([
          {
            type: 'merge_queue.paused',
            data: { repository, reason: 'release', actor: alice, at: '2026-04-24T08:00:00.000Z' },
          },
        ]));

    it('a second unpause is refused', () => {
      spec
        .given([paused, unpaused])
        .when({ type: 'UnpauseMergeQueue', repository, actor: ci, at: t2 })
        .thenThrows(DomainError, NOT_PAUSED_MESSAGE);
    });
  });
});
