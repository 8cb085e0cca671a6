import type { MergeQueueCommand } from '../domain/commands';
import { mergeQueueDecider } from '../domain/decider';
import type { MergeQueueEvent } from '../domain/events';
import { pendingEffects, type QueueEffect } from '../domain/planner';
import {
  defaultQueuePolicy,
  PRIORITY,
  type MergeQueuePolicy,
  type QueuePolicy,
  type QueueRulePolicy,
} from '../domain/policy';
import type { QueueState } from '../domain/state';

/** Builders for merge-queue commands in tests: one queue, times in minutes from a fixed origin. */
export const REPOSITORY = 'acme/mono';
export const BASE_REF = 'main';
export const ORIGIN = Date.parse('2026-07-01T10:00:00.000Z');

export const minutes = (m: number): number => ORIGIN + m * 60_000;
export const isoAt = (m: number): string => new Date(minutes(m)).toISOString();

type Fields<K extends MergeQueueCommand['kind']> = Omit<
  Extract<MergeQueueCommand, { kind: K }>,
  'kind' | 'repository' | 'baseRef' | 'at'
>;

export const command = <K extends MergeQueueCommand['kind']>(kind: K, atMinutes: number, fields: Fields<K>) =>
  ({ kind, repository: REPOSITORY, baseRef: BASE_REF, at: minutes(atMinutes), ...fields }) as Extract<
    MergeQueueCommand,
    { kind: K }
  >;

export const policyWith = (
  mergeQueue: Partial<MergeQueuePolicy> = {},
  rule: Partial<QueueRulePolicy> = {},
  extraRules: Array<Partial<QueueRulePolicy> & { name: string }> = [],
): QueuePolicy => {
  const base = defaultQueuePolicy();
  return {
    mergeQueue: { ...base.mergeQueue, ...mergeQueue },
    rules: [
      { ...base.rules[0]!, checksTimeout: null, ...rule },
      ...extraRules.map((extra) => ({ ...base.rules[0]!, checksTimeout: null, ...extra })),
    ],
  };
};

export const configure = (policy: QueuePolicy, atMinutes = 0) =>
  command('apply_configuration', atMinutes, { policy });

export const enqueue = (pullRequest: number, atMinutes: number, options: Partial<Fields<'enqueue'>> = {}) =>
  command('enqueue', atMinutes, {
    pullRequest,
    queueName: 'default',
    priority: PRIORITY.medium,
    priorityRuleName: null,
    allowCheckInterruption: false,
    headSha: `head-${pullRequest}`,
    scopes: [],
    allScopes: false,
    dependsOn: [],
    trigger: 'Rule: automatic merge',
    ...options,
  });

/** Runs commands from an empty queue; returns every event and the resulting state. */
export function run(commands: MergeQueueCommand[], start: QueueState = mergeQueueDecider.initialState()) {
  let state = start;
  const events: MergeQueueEvent[] = [];
  for (const each of commands) {
    for (const event of mergeQueueDecider.decide(each, state)) {
      events.push(event);
      state = mergeQueueDecider.evolve(state, event);
    }
  }
  return { events, state };
}

export const stateOf = (events: MergeQueueEvent[]): QueueState =>
  events.reduce(mergeQueueDecider.evolve, mergeQueueDecider.initialState());

/** The batch that holds this pull request now. */
export const batchOf = (events: MergeQueueEvent[], pullRequest: number) => {
  const state = stateOf(events);
  const batch = state.batches.find((b) => b.pullRequests.includes(pullRequest));
  if (!batch) throw new Error(`#${pullRequest} is in no batch`);
  return batch;
};

export const effectsOf = (events: MergeQueueEvent[], atMinutes: number): QueueEffect[] =>
  pendingEffects(stateOf(events), minutes(atMinutes));

/** The draft the code host created for the batch holding `pullRequest` (what a reactor reports). */
export const draftCreated = (
  events: MergeQueueEvent[],
  pullRequest: number,
  atMinutes: number,
  draft: number,
) => {
  const batch = batchOf(events, pullRequest);
  return command('draft_created', atMinutes, {
    batchId: batch.id,
    attempt: batch.attempt,
    checkPullRequest: draft,
    headSha: `draft-${draft}`,
  });
};

export const checksReported = (
  events: MergeQueueEvent[],
  pullRequest: number,
  atMinutes: number,
  conclusion: 'success' | 'failure',
) => {
  const batch = batchOf(events, pullRequest);
  return command('checks_reported', atMinutes, {
    batchId: batch.id,
    attempt: batch.attempt,
    conclusion,
    unsuccessfulChecks:
      conclusion === 'failure'
        ? [{ name: 'ci', description: 'tests failed', url: null, state: 'failure', avatarUrl: null }]
        : [],
  });
};

/** Event types only, for readable expectations of long decisions. */
export const types = (events: MergeQueueEvent[]): string[] => events.map((e) => e.type);

/** checks_ended events as [pull requests, abort code, status]. */
export const checksEnds = (events: MergeQueueEvent[]) =>
  events.flatMap((e) =>
    e.type === 'merge_queue.checks_ended'
      ? [[e.data.pullRequests.map((p) => p.number), e.data.abortCode, e.data.abortStatus] as const]
      : [],
  );

/** pull_request_left events as [pull request, dequeue code]. */
export const leaves = (events: MergeQueueEvent[]) =>
  events.flatMap((e) =>
    e.type === 'merge_queue.pull_request_left' ? [[e.data.pullRequest, e.data.dequeueCode] as const] : [],
  );

/** batch_composed events as their pull-request lists. */
export const compositions = (events: MergeQueueEvent[]) =>
  events.flatMap((e) =>
    e.type === 'merge_queue.batch_composed' ? [e.data.pullRequests.map((p) => p.number)] : [],
  );

/**
 * Plays the code host for every batch waiting for its draft: creates the drafts (numbered from
 * 900 up, in batch order), returns the history with the resulting events appended.
 */
export function withDrafts(history: MergeQueueEvent[], atMinutes: number): MergeQueueEvent[] {
  let events = history;
  for (let guard = 0; guard < 100; guard++) {
    const state = stateOf(events);
    const preparing = state.batches.find((b) => b.phase === 'preparing');
    if (!preparing) break;
    const used = events.filter(
      (e) => e.type === 'merge_queue.checks_started' || e.type === 'merge_queue.draft_orphaned',
    ).length;
    const next = command('draft_created', atMinutes, {
      batchId: preparing.id,
      attempt: preparing.attempt,
      checkPullRequest: preparing.checkMethod === 'in_place' ? preparing.pullRequests[0]! : 900 + used,
      headSha: `draft-${used}`,
    });
    events = [...events, ...run([next], state).events];
  }
  return events;
}

/** Appends what a command decides to the history. */
export const then = (history: MergeQueueEvent[], next: MergeQueueCommand): MergeQueueEvent[] => [
  ...history,
  ...run([next], stateOf(history)).events,
];

/** A queue with these pull requests entered at minute 0 and every draft created at minute 1. */
export const running = (policy: QueuePolicy, count: number): MergeQueueEvent[] =>
  withDrafts(
    run([configure(policy), ...Array.from({ length: count }, (_, i) => enqueue(i + 1, 0))]).events,
    1,
  );

/** The events appended after `history`. */
export const after = (history: MergeQueueEvent[], events: MergeQueueEvent[]): MergeQueueEvent[] =>
  events.slice(history.length);
