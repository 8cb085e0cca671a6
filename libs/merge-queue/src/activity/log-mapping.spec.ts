import { LOG_EVENT_TYPES, type LogRecordDraft } from '@switchyard/activity-log-contract';
import type { RecordedEvent } from '@switchyard/event-store';
import {
  mergeQueueEventTypes,
  type MergeQueueEvent,
  type QueuedPullRequest,
  type SpeculativeCheck,
} from '../domain/events';
import { unpairedActorFields } from '../../../activity-log/src/testing/actor-fields';
import { bookkeepingEventTypes, mergeQueueLogMapping } from './log-mapping';

const where = {
  repository: 'acme/mono',
  baseRef: 'main',
  trigger: 'merge queue internal',
  occurredAt: '2026-07-01T10:00:00.000Z',
};
const inQueue = { queueName: 'default', partitionName: '__default__' };
const pr = (number: number): QueuedPullRequest => ({
  number,
  queuedAt: '2026-07-01T09:00:00.000Z',
  priorityRuleName: 'default',
  sessionId: `00000000-0000-4000-a000-00000000000${number % 10}`,
});
const speculative: SpeculativeCheck = {
  number: 900,
  inPlace: false,
  checksTimedOut: false,
  checksConclusion: 'failure',
  checksStartedAt: '2026-07-01T09:10:00.000Z',
  checksEndedAt: '2026-07-01T09:40:00.000Z',
  unsuccessfulChecks: [
    {
      name: 'tests',
      description: 'failed',
      url: null,
      detailsUrl: 'https://ci/1',
      state: 'failure',
      avatarUrl: null,
    },
  ],
};
const batch = [pr(1), pr(2)];
const bisection = {
  ...where,
  ...inQueue,
  trainCarId: 'car',
  originalBatch: batch,
  batchPullRequestNumbers: [900, 901],
};

/** One of each merge-queue domain event. */
const samples: MergeQueueEvent[] = [
  {
    type: 'merge_queue.pull_request_entered',
    data: {
      ...where,
      ...inQueue,
      pullRequest: 1,
      queuedAt: pr(1).queuedAt,
      priorityRuleName: null,
      sessionId: 's',
      priority: 2000,
      allowCheckInterruption: false,
      scopes: [],
      allScopes: false,
      dependsOn: [],
      headSha: 'abc',
    },
  },
  {
    type: 'merge_queue.checks_started',
    data: {
      ...where,
      ...inQueue,
      trainCarId: 'car',
      attempt: 0,
      startReason: 'First time',
      speculativeCheck: speculative,
      pullRequests: batch,
    },
  },
  {
    type: 'merge_queue.checks_ended',
    data: {
      ...where,
      ...inQueue,
      trainCarId: 'car',
      aborted: false,
      abortCode: 'CHECKS_FAILED',
      abortReason: 'Checks did not succeed',
      abortStatus: 'DEFINITIVE',
      retryAttempt: null,
      maxRetries: null,
      speculativeCheck: speculative,
      pullRequests: batch,
    },
  },
  {
    type: 'merge_queue.batch_bisection_started',
    data: {
      ...bisection,
      batchSizeBeforeSplit: 2,
      numberOfSubBatches: 2,
      bisectionDepth: 1,
      isTopLevel: true,
    },
  },
  {
    type: 'merge_queue.batch_bisection_ended',
    data: {
      ...bisection,
      culpritFound: true,
      culpritPullRequests: [2],
      remainingPullRequests: [1],
      maxFailureResolutionReached: false,
    },
  },
  {
    type: 'merge_queue.pull_request_merged',
    data: {
      ...where,
      pullRequest: 1,
      queueName: 'default',
      partitionNames: ['__default__'],
      queuedAt: pr(1).queuedAt,
      priorityRuleName: null,
      sessionId: 's',
    },
  },
  {
    type: 'merge_queue.pull_request_left',
    data: {
      ...where,
      ...inQueue,
      pullRequest: 2,
      reason: 'The merge conditions cannot be satisfied due to failing checks',
      merged: false,
      dequeueCode: 'CHECKS_FAILED',
      queuedAt: pr(2).queuedAt,
      secondsWaitingForSchedule: 0,
      secondsWaitingForFreeze: 12,
      priorityRuleName: null,
      conditionsEvaluation: {
        match: false,
        label: 'all of',
        isLabelUserInput: false,
        description: null,
        attributeName: null,
        operator: null,
        schedule: null,
        evaluations: [],
        subconditions: [
          {
            match: false,
            label: 'check-success=tests',
            isLabelUserInput: true,
            description: null,
            attributeName: 'check-success',
            operator: '=',
            schedule: null,
            subconditions: [],
            evaluations: [],
          },
        ],
      },
      checks: [{ name: 'tests', description: '', url: null, state: 'failure', avatarUrl: null }],
      unsuccessfulChecks: [{ name: 'tests', description: '', url: null, state: 'failure', avatarUrl: null }],
      pullRequestHeadSha: 'abc',
      sessionId: null,
    },
  },
  { type: 'merge_queue.queue_size_changed', data: { ...where, ...inQueue, priorityRuleName: null, size: 3 } },
  { type: 'merge_queue.running_checks_changed', data: { ...where, ...inQueue, runningChecks: 2 } },
  {
    type: 'merge_queue.checks_postponed',
    data: {
      ...where,
      ...inQueue,
      pullRequest: 1,
      queuedAt: pr(1).queuedAt,
      priorityRuleName: null,
      reason: 'No slot',
      sessionId: 's',
    },
  },
  {
    type: 'merge_queue.conflict_deferred',
    data: {
      ...where,
      ...inQueue,
      pullRequest: 3,
      queuedAt: pr(3).queuedAt,
      priorityRuleName: null,
      reason: 'Conflicts with pull requests ahead',
      blockingPullRequests: [1, 2],
      sessionId: 's',
    },
  },
  {
    type: 'merge_queue.batch_composed',
    data: {
      ...where,
      ...inQueue,
      trainCarId: 'car',
      pullRequests: batch,
      batchReason: 'queue_order',
      parentIds: [],
      scopes: [],
      allScopes: false,
      bisection: null,
      knownFailure: false,
    },
  },
  {
    type: 'pull_request.command_received',
    data: {
      ...where,
      trigger: 'Command: queue',
      pullRequest: 1,
      command: 'queue',
      author: { login: 'alice', id: 7, type: 'User' },
      commentId: 42,
      sessionId: null,
      commandTrigger: 'comment',
      triggerCommentUrl: 'https://github.com/acme/mono/pull/1#issuecomment-42',
    },
  },
];

const map = (event: MergeQueueEvent): LogRecordDraft[] => {
  const mapper = mergeQueueLogMapping[event.type]!;
  return mapper({ type: event.type, data: event.data } as RecordedEvent);
};
const only = (type: MergeQueueEvent['type']) => map(samples.find((e) => e.type === type)!);

/** Mergify's batch fields (its OpenAPI's queue event metadata), which the spec's table does not list. */
const BATCH_FIELDS = ['batch_id', 'batch_name', 'scopes', 'all_scopes', 'parent_batch_ids'];
const MERGIFY_FIELDS: Record<string, string[]> = {
  'action.queue.checks_start': [...BATCH_FIELDS, 'previous_batch_id', 'previous_batch_name'],
  'action.queue.checks_end': BATCH_FIELDS,
  'action.queue.batch_bisection_start': ['batch_id', 'batch_name'],
  'action.queue.batch_bisection_end': [
    'batch_id',
    'batch_name',
    'confirmed_culprit_pr_numbers',
    'dropped_unverified_pr_numbers',
  ],
  'action.queue.merged': ['merge_commit_sha'],
  'action.queue.leave': ['batch_id', 'scopes', 'all_scopes'],
};

/**
 * The spec's metadata fields per type (Events table), plus dequeue_code and unsuccessful_checks on
 * leave, plus Mergify's batch fields.
 */
const SPEC_FIELDS: Record<string, string[]> = {
  'action.queue.enter': [
    'queue_name',
    'branch',
    'queued_at',
    'partition_name',
    'priority_rule_name',
    'session_id',
  ],
  'action.queue.checks_start': [
    'branch',
    'partition_name',
    'priority_rule_name',
    'queue_name',
    'queued_at',
    'start_reason',
    'speculative_check_pull_request',
    'pull_request_numbers',
    'train_car_id',
    'session_id',
  ],
  'action.queue.checks_end': [
    'aborted',
    'abort_code',
    'abort_reason',
    'abort_status',
    'branch',
    'partition_name',
    'queue_name',
    'priority_rule_name',
    'queued_at',
    'retry_attempt',
    'max_retries',
    'speculative_check_pull_request',
    'pull_request_numbers',
    'train_car_id',
    'session_id',
  ],
  'action.queue.batch_bisection_start': [
    'queue_name',
    'partition_name',
    'priority_rule_name',
    'original_batch_pr_numbers',
    'batch_size_before_split',
    'number_of_sub_batches',
    'bisection_depth',
    'is_top_level',
    'session_id',
    'train_car_id',
  ],
  'action.queue.batch_bisection_end': [
    'queue_name',
    'partition_name',
    'priority_rule_name',
    'original_batch_pr_numbers',
    'culprit_found',
    'culprit_pr_numbers',
    'remaining_pr_numbers',
    'max_failure_resolution_reached',
    'session_id',
    'train_car_id',
  ],
  'action.queue.merged': [
    'branch',
    'partition_names',
    'queue_name',
    'queued_at',
    'priority_rule_name',
    'session_id',
  ],
  'action.queue.leave': [
    'reason',
    'merged',
    'queue_name',
    'branch',
    'partition_name',
    'queued_at',
    'seconds_waiting_for_schedule',
    'seconds_waiting_for_freeze',
    'priority_rule_name',
    'conditions_evaluation',
    'checks',
    'pull_request_head_sha',
    'session_id',
    'dequeue_code',
    'unsuccessful_checks',
  ],
  'action.queue.change': ['queue_name', 'partition_name', 'priority_rule_name', 'size'],
  'action.queue.checks.change': ['queue_name', 'partition_name', 'running_checks'],
  'action.queue.checks_postponed': [
    'branch',
    'partition_name',
    'priority_rule_name',
    'queue_name',
    'queued_at',
    'reason',
    'session_id',
  ],
  'action.queue.conflict_deferred': [
    'branch',
    'partition_name',
    'priority_rule_name',
    'queue_name',
    'queued_at',
    'reason',
    'session_id',
    'blocking_pull_request_numbers',
  ],
  'action.queue.batch_composition': [
    'branch',
    'partition_name',
    'queue_name',
    'priority_rule_name',
    'queued_at',
    'pull_request_numbers',
    'batch_reason',
    'train_car_id',
    'session_id',
  ],
  'command.queue': ['author', 'comment_id', 'session_id', 'command_trigger', 'trigger_comment_url'],
  'action.dequeue': [],
};

describe('merge-queue log mapping', () => {
  it('has a row for every merge-queue domain event', () => {
    expect(Object.keys(mergeQueueLogMapping).sort()).toEqual([...mergeQueueEventTypes].sort());
    const logged = mergeQueueEventTypes.filter((type) => !(bookkeepingEventTypes as string[]).includes(type));
    expect(samples.map((e) => e.type).sort()).toEqual([...logged].sort());
  });

  it("gives no record for the queue's own bookkeeping events", () => {
    for (const type of bookkeepingEventTypes)
      expect(mergeQueueLogMapping[type]!({ type, data: {} } as RecordedEvent)).toEqual([]);
  });

  it('logs a manual removal as the dequeue action too, and only that removal', () => {
    const left = samples.find((e) => e.type === 'merge_queue.pull_request_left')!;
    const manual = map({
      ...left,
      data: { ...left.data, dequeueCode: 'PR_MANUALLY_DEQUEUED' },
    } as MergeQueueEvent);
    expect(manual.map((d) => [d.type, d.metadata])).toEqual([
      ['action.queue.leave', expect.any(Object)],
      ['action.dequeue', {}],
    ]);
    expect(map(left).map((d) => d.type)).toEqual(['action.queue.leave']);
  });

  it('logs no composition for a batch of one', () => {
    const composed = samples.find((e) => e.type === 'merge_queue.batch_composed')!;
    const single = { ...composed, data: { ...composed.data, pullRequests: [pr(1)] } } as MergeQueueEvent;
    expect(map(single)).toEqual([]);
  });

  it.each(samples.map((event) => [event.type, event] as const))(
    '%s gives spec log types with exactly the spec metadata fields',
    (_type, event) => {
      const drafts = map(event);
      expect(drafts.length).toBeGreaterThan(0);
      for (const draft of drafts) {
        expect(LOG_EVENT_TYPES).toContain(draft.type);
        expect(Object.keys(draft.metadata).sort()).toEqual(
          [...SPEC_FIELDS[draft.type]!, ...(MERGIFY_FIELDS[draft.type] ?? [])].sort(),
        );
        expect(draft).toMatchObject({
          repository: 'acme/mono',
          baseRef: 'main',
          receivedAt: new Date(where.occurredAt),
        });
      }
    },
  );

  it('pairs every actor field with its staff flag, as every mapping must (actorMetadata)', () => {
    for (const event of samples) {
      for (const draft of map(event))
        expect([draft.type, unpairedActorFields(draft.metadata)]).toEqual([draft.type, []]);
    }
  });

  it('fans a batch event out to one record per pull request, each with its own queue session', () => {
    const drafts = only('merge_queue.checks_ended');
    expect(
      drafts.map((d) => [d.pullRequest, d.metadata.session_id, d.metadata.pull_request_numbers]),
    ).toEqual([
      [1, pr(1).sessionId, [1, 2]],
      [2, pr(2).sessionId, [1, 2]],
    ]);
  });

  it('snapshots the check pull request of checks start and end, and the split batch of a bisection', () => {
    expect(only('merge_queue.checks_started').map((d) => d.batchPullRequests)).toEqual([[900], [900]]);
    expect(only('merge_queue.checks_ended').map((d) => d.batchPullRequests)).toEqual([[900], [900]]);
    expect(only('merge_queue.batch_bisection_started').map((d) => d.batchPullRequests)).toEqual([
      [900, 901],
      [900, 901],
    ]);
    expect(only('merge_queue.pull_request_entered')[0]!.batchPullRequests).toBeUndefined();
  });

  it('writes the speculative check as the spec SpecCheckSignal', () => {
    expect(only('merge_queue.checks_ended')[0]!.metadata.speculative_check_pull_request).toEqual({
      number: 900,
      in_place: false,
      checks_timed_out: false,
      checks_conclusion: 'failure',
      checks_started_at: '2026-07-01T09:10:00.000Z',
      checks_ended_at: '2026-07-01T09:40:00.000Z',
      unsuccessful_checks: [
        {
          name: 'tests',
          description: 'failed',
          url: null,
          details_url: 'https://ci/1',
          state: 'failure',
          avatar_url: null,
        },
      ],
      pull_request_numbers: [1, 2],
    });
  });

  describe("Mergify's batch fields", () => {
    const facts = {
      batchName: 'default #1 #2',
      scopes: ['api'],
      allScopes: false,
      parentIds: ['11111111-1111-4111-8111-111111111111'],
    };
    const withData = (type: MergeQueueEvent['type'], data: object): LogRecordDraft[] => {
      const event = samples.find((e) => e.type === type)!;
      return map({ ...event, data: { ...event.data, ...data } } as MergeQueueEvent);
    };
    const pick = (drafts: LogRecordDraft[], fields: string[]) =>
      drafts.map((d) => [d.pullRequest, Object.fromEntries(fields.map((f) => [f, d.metadata[f]]))]);

    it('names the batch a check starts in, and the batch each pull request was checked in before', () => {
      const previous = { id: '22222222-2222-4222-8222-222222222222', name: 'default #1' };
      const drafts = withData('merge_queue.checks_started', {
        ...facts,
        speculativeCheck: { ...speculative, pullRequestNumbers: [1, 2, 3] },
        previousBatches: { 1: previous, 2: null },
      });
      expect(pick(drafts, [...BATCH_FIELDS, 'previous_batch_id', 'previous_batch_name'])).toEqual([
        [
          1,
          {
            batch_id: 'car',
            batch_name: 'default #1 #2',
            scopes: ['api'],
            all_scopes: false,
            parent_batch_ids: facts.parentIds,
            previous_batch_id: previous.id,
            previous_batch_name: 'default #1',
          },
        ],
        [2, expect.objectContaining({ batch_id: 'car', previous_batch_id: null, previous_batch_name: null })],
      ]);
      const check = drafts[0]!.metadata.speculative_check_pull_request as Record<string, unknown>;
      expect(check.pull_request_numbers).toEqual([1, 2, 3]);
    });

    it('names the batch whose checks end', () => {
      expect(pick(withData('merge_queue.checks_ended', facts), BATCH_FIELDS)[0]).toEqual([
        1,
        {
          batch_id: 'car',
          batch_name: 'default #1 #2',
          scopes: ['api'],
          all_scopes: false,
          parent_batch_ids: facts.parentIds,
        },
      ]);
    });

    it('names the split batch of a bisection, and lists what the bisection confirmed and dropped', () => {
      expect(
        pick(withData('merge_queue.batch_bisection_started', { batchName: 'default #1 #2' }), [
          'batch_id',
          'batch_name',
        ])[0],
      ).toEqual([1, { batch_id: 'car', batch_name: 'default #1 #2' }]);
      const ended = withData('merge_queue.batch_bisection_ended', {
        batchName: 'default #1 #2',
        maxFailureResolutionReached: true,
        droppedUnverifiedPullRequests: [1],
      });
      expect(
        pick(ended, ['batch_name', 'confirmed_culprit_pr_numbers', 'dropped_unverified_pr_numbers'])[0],
      ).toEqual([
        1,
        {
          batch_name: 'default #1 #2',
          confirmed_culprit_pr_numbers: [2],
          dropped_unverified_pr_numbers: [1],
        },
      ]);
    });

    it('records the commit a merge landed, and the batch a pull request left', () => {
      expect(only('merge_queue.pull_request_merged')[0]!.metadata.merge_commit_sha).toBeNull();
      const merged = withData('merge_queue.pull_request_merged', { mergeCommitSha: 'f00d' });
      expect(merged[0]!.metadata.merge_commit_sha).toBe('f00d');
      const left = withData('merge_queue.pull_request_left', {
        batch: { id: 'car', scopes: ['api'], allScopes: true },
      });
      expect(pick(left, ['batch_id', 'scopes', 'all_scopes'])).toEqual([
        [2, { batch_id: 'car', scopes: ['api'], all_scopes: true }],
      ]);
      const waiting = withData('merge_queue.pull_request_left', { batch: null });
      expect(pick(waiting, ['batch_id', 'scopes', 'all_scopes'])).toEqual([
        [2, { batch_id: null, scopes: null, all_scopes: null }],
      ]);
    });

    it('shows null for what events recorded before the queue kept it do not say', () => {
      expect(pick(only('merge_queue.checks_started'), [...BATCH_FIELDS, 'previous_batch_id'])[0]).toEqual([
        1,
        {
          batch_id: 'car',
          batch_name: null,
          scopes: null,
          all_scopes: null,
          parent_batch_ids: null,
          previous_batch_id: null,
        },
      ]);
      // The check's pull requests are the records' own then.
      const check = only('merge_queue.checks_started')[0]!.metadata.speculative_check_pull_request as Record<
        string,
        unknown
      >;
      expect(check.pull_request_numbers).toEqual([1, 2]);
      expect(pick(only('merge_queue.pull_request_left'), ['batch_id', 'scopes', 'all_scopes'])).toEqual([
        [2, { batch_id: null, scopes: null, all_scopes: null }],
      ]);
      // Nothing is dropped without the cap reached; with it, an old event cannot say which were.
      const ended = only('merge_queue.batch_bisection_ended')[0]!.metadata;
      expect([ended.batch_name, ended.dropped_unverified_pr_numbers]).toEqual([null, []]);
      const capped = withData('merge_queue.batch_bisection_ended', { maxFailureResolutionReached: true });
      expect(capped[0]!.metadata.dropped_unverified_pr_numbers).toBeNull();
    });
  });

  it('writes condition reports in snake_case, recursively', () => {
    const evaluation = only('merge_queue.pull_request_left')[0]!.metadata.conditions_evaluation as {
      subconditions: Array<Record<string, unknown>>;
    };
    expect(evaluation.subconditions[0]).toEqual({
      match: false,
      label: 'check-success=tests',
      is_label_user_input: true,
      description: null,
      attribute_name: 'check-success',
      operator: '=',
      schedule: null,
      subconditions: [],
      evaluations: [],
    });
  });

  it('leaves repository-level records without a pull request', () => {
    expect(only('merge_queue.queue_size_changed')[0]!.pullRequest).toBeNull();
    expect(only('merge_queue.running_checks_changed')[0]!.pullRequest).toBeNull();
  });

  it.each([
    ['queue', 'command.queue'],
    ['requeue', 'command.queue'],
    ['dequeue', 'command.dequeue'],
    ['unqueue', 'command.dequeue'],
  ])('logs the %s command as %s', (command, type) => {
    const event = samples.find((e) => e.type === 'pull_request.command_received')!;
    const drafts = map({ ...event, data: { ...event.data, command } } as MergeQueueEvent);
    expect(drafts.map((d) => d.type)).toEqual([type]);
    expect(drafts[0]!.metadata.author).toEqual({ login: 'alice', id: 7, type: 'User' });
  });

  it('gives no record for a command the log has no type for', () => {
    const event = samples.find((e) => e.type === 'pull_request.command_received')!;
    expect(map({ ...event, data: { ...event.data, command: 'refresh' } } as MergeQueueEvent)).toEqual([]);
  });
});
