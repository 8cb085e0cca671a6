import type { PullRequestSnapshot } from '@switchyard/code-host';
import type { MergifyConfiguration } from '@switchyard/config';
import { pullRequestSnapshotFixture } from '@switchyard/config/conditions';
import type { MergeQueueCommand } from '../domain/commands';
import { mergeQueueDecider } from '../domain/decider';
import type { DequeueCode, MergeQueueEvent } from '../domain/events';
import { admit } from '../domain/intake/admission';
import { decideIntake, type IntakeFact } from '../domain/intake/intake-decider';
import { nextStep, pendingEffects, type QueueEffect } from '../domain/planner';
import type { QueuePolicy } from '../domain/policy';
import { ruleMayRequeue } from '../domain/requeue';
import { policyOf, type QueueState } from '../domain/state';
import { timerVisit } from '../domain/timer-visit';
import { holdsSlot } from '../domain/train';
import { EventHeap } from '../simulation/event-heap';

/**
 * One repository's queue as the engine runs it, on a virtual clock: pull requests live (opened,
 * labelled, pushed to, commented on), the intake decides what each fact means (intake-decider),
 * the queue decides (decider + planner), the effects are carried out at once (drafts, merges,
 * labels whose webhooks come back to the intake, as on GitHub), CI answers each run after a fixed
 * time, and a timer looks at the queue every `timerMs` as QueueTimer does (timerVisit). Pure and
 * deterministic: the liveness properties run on it.
 */

export const WORLD_REPOSITORY = 'acme/world';
const BASE = 'main';
const FIRST_DRAFT = 10_000;

export type LifeAction =
  /** Pushes a commit that fixes the change (its new head passes CI). */
  'push_fix' | 'comment_queue' | 'comment_requeue' | 'comment_dequeue' | 'remove_label' | 'add_label';

export interface PullRequestLife {
  number: number;
  opensAt: number;
  /** Its first head fails CI whenever it is checked. */
  broken: boolean;
  /** How it asks to be queued: the `ready` label (a rule), or a `@mergify queue` comment. */
  via: 'label' | 'command';
  later: { at: number; action: LifeAction }[];
}

export interface WorldSetup {
  configuration: MergifyConfiguration;
  policy: QueuePolicy;
  lives: PullRequestLife[];
  /** How long CI takes to answer a run. */
  ciMs: number;
  /** Runs (counted from 1) that never answer: only checks_timeout ends them. */
  stuckRuns?: ReadonlySet<number>;
  timerMs: number;
}

/** One stay of a pull request in the queue: from its enter to its leave (null: still queued). */
export interface Stay {
  pullRequest: number;
  enteredAt: number;
  /** Pull requests already queued when it entered. */
  queuedAhead: number;
  trigger: string;
  headSha: string;
  leftAt: number | null;
  code: DequeueCode | null;
  merged: boolean;
  /** The head it left with. */
  leftHeadSha: string | null;
}

export interface WorldRecord {
  stays: Stay[];
  /** Commands people gave (`@mergify queue`, `requeue`): they may queue a pull request again as it is. */
  commands: { pullRequest: number; at: number }[];
  /** Timer visits after which the planner still had a decision due. */
  unsettledVisits: { at: number }[];
  /** Timer visits that left a pull request waiting past its batch_max_start_at with a slot free. */
  overdueBatches: { at: number; pullRequest: number; startAt: number }[];
  /** Facts after which a pull request a rule admits, and nothing holds back, was not queued. */
  intakeMisses: { at: number; pullRequest: number; action: string }[];
  events: { at: number; event: MergeQueueEvent }[];
  /** The clock when the world stopped. */
  endedAt: number;
}

interface PullRequest {
  life: PullRequestLife;
  version: number;
  /** Heads that fail CI. */
  brokenHeads: Set<string>;
  labels: Set<string>;
  open: boolean;
  merged: boolean;
}

type Timed =
  | { kind: 'life'; number: number; action: LifeAction | 'open' }
  | { kind: 'ci'; command: MergeQueueCommand }
  | { kind: 'timer' };

export function runWorld(setup: WorldSetup, options: { until: number }): WorldRecord {
  const pending = new EventHeap<Timed>();
  let comments = 0;
  /** Everything pending but the timer's own visits: once none is left and the queue is empty, nothing can happen. */
  let facts = 0;
  const schedule = (at: number, item: Timed) => {
    if (item.kind !== 'timer') facts += 1;
    pending.push(at, item);
  };
  const pullRequests = new Map<number, PullRequest>();
  const record: WorldRecord = {
    stays: [],
    commands: [],
    unsettledVisits: [],
    overdueBatches: [],
    intakeMisses: [],
    events: [],
    endedAt: 0,
  };
  let state: QueueState = mergeQueueDecider.initialState();
  let now = 0;
  let nextDraft = FIRST_DRAFT;
  let runs = 0;
  /** Label webhooks the effects cause: the intake reads them after the decision that caused them. */
  const webhooks: { number: number; action: string }[] = [];

  const headOf = (pr: PullRequest) => `pr${pr.life.number}-v${pr.version}`;

  const snapshotOf = (pr: PullRequest): PullRequestSnapshot =>
    pullRequestSnapshotFixture({
      repository: { owner: 'acme', name: 'world', fullName: WORLD_REPOSITORY, defaultBranch: BASE },
      number: pr.life.number,
      labels: [...pr.labels].sort(),
      state: pr.open ? 'open' : 'closed',
      merged: pr.merged,
      mergeCommitSha: pr.merged ? `merge-${pr.life.number}` : null,
      head: { ref: `change-${pr.life.number}`, sha: headOf(pr), repositoryFullName: WORLD_REPOSITORY },
      base: { ref: BASE, sha: 'base', repositoryFullName: WORLD_REPOSITORY },
    });

  const apply = (command: MergeQueueCommand) => {
    const queuedBefore = Object.keys(state.pullRequests).length;
    for (const event of mergeQueueDecider.decide(command, state)) {
      state = mergeQueueDecider.evolve(state, event);
      record.events.push({ at: now, event });
      observe(event, queuedBefore);
    }
  };

  const observe = (event: MergeQueueEvent, queuedBefore: number) => {
    const { queuedLabel, dequeuedLabel } = policyOf(state).mergeQueue;
    if (event.type === 'merge_queue.pull_request_entered') {
      record.stays.push({
        pullRequest: event.data.pullRequest,
        enteredAt: now,
        queuedAhead: queuedBefore,
        trigger: event.data.trigger,
        headSha: event.data.headSha,
        leftAt: null,
        code: null,
        merged: false,
        leftHeadSha: null,
      });
      toggleLabels(event.data.pullRequest, queuedLabel, dequeuedLabel);
    }
    if (event.type === 'merge_queue.pull_request_left') {
      const stay = record.stays.findLast(
        (s) => s.pullRequest === event.data.pullRequest && s.leftAt === null,
      );
      if (stay)
        Object.assign(stay, {
          leftAt: now,
          code: event.data.dequeueCode,
          merged: event.data.merged,
          leftHeadSha: event.data.pullRequestHeadSha,
        });
      toggleLabels(event.data.pullRequest, event.data.merged ? null : dequeuedLabel, queuedLabel);
    }
  };

  /** The effects reactor's labels: each change comes back as a webhook. */
  const toggleLabels = (number: number, add: string | null, remove: string | null) => {
    const pr = pullRequests.get(number)!;
    if (add && !pr.labels.has(add)) {
      pr.labels.add(add);
      webhooks.push({ number, action: 'labeled' });
    }
    if (remove && pr.labels.has(remove)) {
      pr.labels.delete(remove);
      webhooks.push({ number, action: 'unlabeled' });
    }
  };

  const queueCommand = <K extends MergeQueueCommand['kind']>(
    kind: K,
    fields: Omit<Extract<MergeQueueCommand, { kind: K }>, 'kind' | 'repository' | 'baseRef' | 'at'>,
  ) =>
    ({
      kind,
      repository: WORLD_REPOSITORY,
      baseRef: BASE,
      at: now,
      ...fields,
    }) as unknown as MergeQueueCommand;

  /** Checks start on a draft, or on the pull request itself (in place: its own head, up to date here). */
  const startCi = (batchId: string, attempt: number, checkPullRequest: number, checked: number[]) => {
    runs += 1;
    const heads = checked.map((n) => state.pullRequests[n]?.headSha ?? '');
    const inPlace = pullRequests.get(checkPullRequest);
    const headSha = inPlace ? headOf(inPlace) : `run-${runs}`;
    apply(queueCommand('draft_created', { batchId, attempt, checkPullRequest, headSha }));
    if (setup.stuckRuns?.has(runs)) return;
    const fails = checked.some((n, index) => pullRequests.get(n)!.brokenHeads.has(heads[index]!));
    schedule(now + setup.ciMs, {
      kind: 'ci',
      command: queueCommand('checks_reported', {
        batchId,
        attempt,
        conclusion: fails ? 'failure' : 'success',
        unsuccessfulChecks: fails
          ? [{ name: 'ci', description: 'ci failed', url: null, state: 'failure', avatarUrl: null }]
          : [],
      }),
    });
  };

  const mergeOne = (number: number) => {
    apply(queueCommand('merged', { pullRequest: number, mergeCommitSha: `merge-${number}` }));
    const pr = pullRequests.get(number)!;
    pr.open = false;
    pr.merged = true;
    webhooks.push({ number, action: 'closed' });
  };

  const perform = (effect: QueueEffect) => {
    switch (effect.kind) {
      case 'create_draft': {
        return startCi(effect.batchId, effect.attempt, nextDraft++, effect.pullRequests);
      }
      case 'update_in_place':
        return startCi(effect.batchId, effect.attempt, effect.pullRequest, [effect.pullRequest]);
      case 'merge':
        return mergeOne(effect.pullRequest);
      case 'merge_batch':
        for (const number of effect.pullRequests) mergeOne(number);
        return;
      case 'close_draft':
        return apply(queueCommand('draft_closed', { checkPullRequest: effect.checkPullRequest }));
    }
  };

  /** What the effects reactor and the intake do after each decision, until both have nothing left. */
  const settle = () => {
    for (let guard = 0; guard < 10_000; guard++) {
      const effect = pendingEffects(state, now)[0];
      if (effect) {
        perform(effect);
        continue;
      }
      const webhook = webhooks.shift();
      if (!webhook) return;
      deliver(webhook.number, { kind: 'pull_request_changed', action: webhook.action });
    }
    throw new Error('the world did not settle');
  };

  /** The intake reacts to a fact about one pull request. */
  const deliver = (number: number, fact: IntakeFact) => {
    const pr = pullRequests.get(number)!;
    const snapshot = snapshotOf(pr);
    const configuration = {
      configuration: setup.configuration,
      defaultQueueName: setup.policy.rules[0]!.name,
      problem: null,
    };
    const shouldEnter =
      fact.kind === 'pull_request_changed' &&
      pr.open &&
      state.pullRequests[number] === undefined &&
      ruleMayRequeue(state.departures?.[number], snapshot.head.sha) &&
      admit(
        setup.configuration,
        snapshot,
        new Date(now),
        { kind: 'rule' },
        configuration.defaultQueueName,
      ) !== null;
    const scene = {
      snapshot,
      queue: state,
      scopes: { scopes: [], allScopes: false },
      configuration,
      now: new Date(now),
    };
    for (const command of decideIntake(fact, scene)) apply(command);
    if (shouldEnter && state.pullRequests[number] === undefined)
      record.intakeMisses.push({
        at: now,
        pullRequest: number,
        action: fact.kind === 'pull_request_changed' ? fact.action : 'command',
      });
  };

  const command = (number: number, word: 'queue' | 'requeue' | 'dequeue'): IntakeFact => ({
    kind: 'command',
    command: {
      repository: WORLD_REPOSITORY,
      number,
      command: word,
      argument: null,
      author: { login: 'dev', id: 1, type: 'User' },
      commentId: ++comments,
      commentUrl: `https://example.test/${number}#${comments}`,
      permission: 'write',
      at: new Date(now).toISOString(),
    },
  });

  const live = (number: number, action: LifeAction | 'open') => {
    const pr = pullRequests.get(number)!;
    if (!pr.open) return;
    switch (action) {
      case 'open':
        if (pr.life.via === 'label') pr.labels.add('ready');
        deliver(number, { kind: 'pull_request_changed', action: 'opened' });
        if (pr.life.via === 'command') deliver(number, command(number, 'queue'));
        return;
      case 'push_fix':
        pr.version += 1;
        deliver(number, { kind: 'pull_request_changed', action: 'synchronize' });
        // The reader's full read follows the push's webhook.
        deliver(number, { kind: 'pull_request_changed', action: 'synchronize' });
        return;
      case 'comment_queue':
      case 'comment_requeue':
        record.commands.push({ pullRequest: number, at: now });
        return deliver(number, command(number, action === 'comment_queue' ? 'queue' : 'requeue'));
      case 'comment_dequeue':
        return deliver(number, command(number, 'dequeue'));
      case 'remove_label':
        if (!pr.labels.delete('ready')) return;
        return deliver(number, { kind: 'pull_request_changed', action: 'unlabeled' });
      case 'add_label':
        if (pr.labels.has('ready')) return;
        pr.labels.add('ready');
        return deliver(number, { kind: 'pull_request_changed', action: 'labeled' });
    }
  };

  const visit = () => {
    const decision = timerVisit(state, now);
    if (decision.tick) apply(queueCommand('tick', {}));
    settle();
    if (nextStep(state, now) !== null) record.unsettledVisits.push({ at: now });
    overdue();
  };

  /**
   * Waiting pull requests past their batch_max_start_at by more than one timer interval while a
   * checks slot is free and nothing holds the queue (serial lane: no failed batch ahead, no pause,
   * no freeze, nothing unmerged ahead of checks in place).
   */
  const overdue = () => {
    const policy = policyOf(state);
    if (state.paused) return;
    const active = state.batches;
    if (active.some((b) => b.phase === 'failed' || b.phase === 'waiting_slot')) return;
    if (active.filter(holdsSlot).length >= policy.mergeQueue.maxParallelChecks) return;
    if (policy.mergeQueue.maxParallelChecks === 1 && active.length > 0) return;
    for (const pr of Object.values(state.pullRequests)) {
      if (pr.batchId !== null || pr.frozenSince !== null || pr.deferredBy !== null) continue;
      const rule = policy.rules.find((r) => r.name === pr.queueName);
      if (!rule) continue;
      const startAt = pr.waitingSince + rule.batchMaxWaitTime * 1000;
      if (startAt + setup.timerMs <= now)
        record.overdueBatches.push({ at: now, pullRequest: pr.number, startAt });
    }
  };

  apply(queueCommand('apply_configuration', { policy: setup.policy }));
  for (const life of setup.lives) {
    pullRequests.set(life.number, {
      life,
      version: 0,
      brokenHeads: new Set(life.broken ? [`pr${life.number}-v0`] : []),
      labels: new Set(),
      open: true,
      merged: false,
    });
    schedule(life.opensAt, { kind: 'life', number: life.number, action: 'open' });
    for (const step of life.later)
      schedule(step.at, { kind: 'life', number: life.number, action: step.action });
  }
  schedule(setup.timerMs, { kind: 'timer' });

  for (;;) {
    const at = pending.peekTime();
    if (at === null || at > options.until) break;
    const next = pending.pop()!;
    now = next.at;
    const { item } = next;
    if (item.kind === 'timer') {
      visit();
      if (facts === 0 && Object.keys(state.pullRequests).length === 0) break;
      schedule(now + setup.timerMs, { kind: 'timer' });
    } else {
      facts -= 1;
      if (item.kind === 'life') live(item.number, item.action);
      else apply({ ...item.command, at: now });
      settle();
    }
  }
  record.endedAt = now;
  return record;
}
