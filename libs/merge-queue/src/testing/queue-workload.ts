import { seededRandom } from '@switchyard/kernel';
import type {
  AbortCode,
  MergeQueueEvent,
  QueueCheck,
  QueuedPullRequest,
  SpeculativeCheck,
} from '../domain/events';

/**
 * A synthetic but plausible merge-queue history for tests and the benchmark: pull requests arrive
 * (more during UTC working hours), some through a `queue` command, ride in batches of one to four,
 * get checked on a draft pull request (retried when re-embarked, bisected when a batch fails), then
 * merge or leave. Seeded, so the same options give the same events.
 */
export interface WorkloadOptions {
  repository: string;
  seed: number;
  from: Date;
  to: Date;
  /** How many domain events to produce (the last batch may overshoot by a few). */
  events: number;
  /** First pull request number used. */
  firstPullRequest?: number;
}

/** One append: the events of one batch, on the batch's stream. */
export interface WorkloadAppend {
  streamId: string;
  events: MergeQueueEvent[];
}

const MINUTE = 60_000;

/** A seeded source (seededRandom) with the draws workloads need. */
export class Random {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed).next;
  }
  between(low: number, high: number): number {
    return low + (high - low) * this.next();
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
  pick<T>(weighted: ReadonlyArray<readonly [T, number]>): T {
    let roll = this.next() * weighted.reduce((sum, [, weight]) => sum + weight, 0);
    for (const [value, weight] of weighted) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return weighted[weighted.length - 1]![0];
  }
  uuid(): string {
    const hex = () =>
      Math.floor(this.next() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    const raw = hex() + hex() + hex() + hex();
    return `${raw.slice(0, 8)}-${raw.slice(8, 12)}-4${raw.slice(13, 16)}-a${raw.slice(17, 20)}-${raw.slice(20, 32)}`;
  }
  sha(): string {
    let sha = '';
    while (sha.length < 40)
      sha += Math.floor(this.next() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    return sha;
  }
}

/** Relative arrival rate by UTC hour: quiet nights, busy working hours; averages 1. */
const HOURLY_RATE = [
  0.3, 0.25, 0.2, 0.2, 0.25, 0.35, 0.6, 0.9, 1.3, 1.6, 1.7, 1.6, 1.4, 1.6, 1.7, 1.7, 1.6, 1.4, 1.1, 0.8, 0.6,
  0.5, 0.4, 0.35,
].map((rate, _, all) => rate / (all.reduce((a, b) => a + b, 0) / all.length));

const ESTIMATED_EVENTS_PER_BATCH = 17;

const RULES = [
  ['automatic merge', 6],
  ['merge on approval', 3],
  ['dependabot', 1],
] as const;
const BASE_REFS = [
  ['main', 85],
  ['release/2026.1', 10],
  ['release/2026.2', 5],
] as const;
const QUEUES = [
  ['default', 7],
  ['lowrisk', 2],
  ['hotfix', 1],
] as const;
const BATCH_SIZES = [
  [1, 40],
  [2, 25],
  [3, 20],
  [4, 15],
] as const;
const AUTHORS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'];

const check = (name: string, state: QueueCheck['state']): QueueCheck => ({
  name,
  description: `${name} ${state}`,
  url: `https://ci.example/${name}`,
  state,
  avatarUrl: null,
});

export function* queueWorkload(options: WorkloadOptions): Generator<WorkloadAppend> {
  const random = new Random(options.seed);
  const { repository } = options;
  const end = options.to.getTime() - 2 * 3600_000;
  let number = options.firstPullRequest ?? 1000;
  let produced = 0;
  let at = options.from.getTime();
  let queueSize = 0;
  let runningChecks = 0;

  while (produced < options.events) {
    // Pace arrivals so the history spans the window, modulated by the hour of day.
    const remainingBatches = Math.max(1, (options.events - produced) / ESTIMATED_EVENTS_PER_BATCH);
    const mean = Math.max(1000, (end - at) / remainingBatches);
    const rate = HOURLY_RATE[new Date(at).getUTCHours()]!;
    at += (-Math.log(1 - random.next()) * mean) / rate;
    if (at > end) at = end - random.between(0, 3600_000);

    const events: MergeQueueEvent[] = [];
    const baseRef = random.pick(BASE_REFS);
    const queueName = random.pick(QUEUES);
    const partitionName = '__default__';
    const trainCarId = random.uuid();
    const internal = { repository, baseRef, trigger: 'merge queue internal' };
    const iso = (ms: number) => new Date(ms).toISOString();
    const size = random.pick(BATCH_SIZES);

    const members: Array<QueuedPullRequest & { rule: string; byCommand: boolean }> = [];
    let t = at;
    for (let i = 0; i < size; i++) {
      const pr = ++number;
      const rule = random.pick(RULES);
      const byCommand = random.chance(0.3);
      const sessionId = random.uuid();
      const priorityRuleName = random.chance(0.2) ? 'high' : 'default';
      const author = random.pick(AUTHORS.map((login) => [login, 1] as const));
      if (byCommand || random.chance(0.05)) {
        events.push({
          type: 'pull_request.command_received',
          data: {
            repository,
            baseRef,
            trigger: `Command: ${byCommand ? 'queue' : 'refresh'}`,
            occurredAt: iso(t - 5000),
            pullRequest: pr,
            command: byCommand ? 'queue' : 'refresh',
            author: { login: author, id: 1000 + AUTHORS.indexOf(author), type: 'User', avatarUrl: null },
            commentId: Math.floor(random.between(1e8, 9e8)),
            sessionId: byCommand ? sessionId : null,
            commandTrigger: random.chance(0.8) ? 'comment' : 'checkbox',
            triggerCommentUrl: `https://github.com/${repository}/pull/${pr}#issuecomment-1`,
          },
        });
      }
      const queuedAt = iso(t);
      members.push({ number: pr, queuedAt, priorityRuleName, sessionId, rule, byCommand });
      events.push({
        type: 'merge_queue.pull_request_entered',
        data: {
          repository,
          baseRef,
          trigger: byCommand ? 'Command: queue' : `Rule: ${rule}`,
          occurredAt: queuedAt,
          pullRequest: pr,
          queueName,
          partitionName,
          queuedAt,
          priorityRuleName,
          sessionId,
          priority: priorityRuleName === 'high' ? 3000 : 2000,
          allowCheckInterruption: false,
          scopes: [],
          allScopes: false,
          dependsOn: [],
          headSha: `${pr.toString(16).padStart(8, '0')}${'0'.repeat(32)}`,
        },
      });
      queueSize++;
      events.push({
        type: 'merge_queue.queue_size_changed',
        data: {
          ...internal,
          occurredAt: iso(t + 1),
          queueName,
          partitionName,
          priorityRuleName,
          size: queueSize,
        },
      });
      if (random.chance(0.15)) {
        events.push({
          type: 'merge_queue.checks_postponed',
          data: {
            ...internal,
            occurredAt: iso(t + 30_000),
            pullRequest: pr,
            queueName,
            partitionName,
            queuedAt,
            priorityRuleName,
            reason: 'Waiting for a free checks slot',
            sessionId,
          },
        });
      }
      if (random.chance(0.01)) {
        events.push({
          type: 'merge_queue.conflict_deferred',
          data: {
            ...internal,
            occurredAt: iso(t + 40_000),
            pullRequest: pr,
            queueName,
            partitionName,
            queuedAt,
            priorityRuleName,
            reason: 'Conflicts with pull requests ahead in the queue',
            blockingPullRequests: [pr - 1],
            sessionId,
          },
        });
      }
      t += random.between(5_000, 60_000);
    }
    const refs = (list: typeof members): QueuedPullRequest[] =>
      list.map(({ number: n, queuedAt, priorityRuleName, sessionId }) => ({
        number: n,
        queuedAt,
        priorityRuleName,
        sessionId,
      }));

    if (size > 1) {
      events.push({
        type: 'merge_queue.batch_composed',
        data: {
          ...internal,
          occurredAt: iso(t),
          queueName,
          partitionName,
          trainCarId,
          pullRequests: refs(members),
          batchReason: 'queue_order',
          parentIds: [],
          scopes: [],
          allScopes: false,
          bisection: null,
          knownFailure: false,
        },
      });
    }

    let riding = members;
    const drafts: number[] = [];
    let bisected = false;
    for (let attempt = 0; riding.length > 0; attempt++) {
      const inPlace = riding.length === 1 && random.chance(0.3);
      const draft = inPlace ? riding[0]!.number : ++number;
      drafts.push(draft);
      const startedAt = t + random.between(30_000, 180_000);
      const endedAt = startedAt + random.between(8, 40) * MINUTE;
      const roll = random.next();
      const verdict =
        attempt >= 3 ? 'success' : roll < 0.85 ? 'success' : roll < 0.95 ? 'failure' : 'reembarked';
      const speculative = (conclusion: SpeculativeCheck['checksConclusion'], ended: number | null) => ({
        number: draft,
        inPlace,
        checksTimedOut: false,
        checksConclusion: conclusion,
        checksStartedAt: iso(startedAt),
        checksEndedAt: ended === null ? null : iso(ended),
        unsuccessfulChecks: conclusion === 'failure' ? [check('tests', 'failure')] : [],
      });
      events.push({
        type: 'merge_queue.checks_started',
        data: {
          ...internal,
          occurredAt: iso(startedAt),
          queueName,
          partitionName,
          trainCarId,
          attempt,
          startReason: attempt === 0 ? 'First time checking pull request' : 'Checks retried',
          speculativeCheck: speculative('pending', null),
          pullRequests: refs(riding),
        },
      });
      runningChecks++;
      events.push({
        type: 'merge_queue.running_checks_changed',
        data: { ...internal, occurredAt: iso(startedAt + 1), queueName, partitionName, runningChecks },
      });
      const aborted = verdict === 'reembarked';
      const abortCode: AbortCode | null = aborted
        ? 'BATCH_AHEAD_FAILED'
        : verdict === 'failure'
          ? 'CHECKS_FAILED'
          : null;
      events.push({
        type: 'merge_queue.checks_ended',
        data: {
          ...internal,
          occurredAt: iso(endedAt),
          queueName,
          partitionName,
          trainCarId,
          aborted,
          abortCode,
          abortReason: aborted
            ? 'Pull request ahead in queue failed to get merged'
            : verdict === 'failure'
              ? 'Checks did not succeed'
              : null,
          abortStatus: aborted ? 'REEMBARKED' : 'DEFINITIVE',
          retryAttempt: attempt > 0 ? attempt : null,
          maxRetries: attempt > 0 ? 3 : null,
          speculativeCheck: speculative(
            verdict === 'failure' ? 'failure' : aborted ? 'cancelled' : 'success',
            endedAt,
          ),
          pullRequests: refs(riding),
        },
      });
      runningChecks = Math.max(0, runningChecks - 1);
      events.push({
        type: 'merge_queue.running_checks_changed',
        data: { ...internal, occurredAt: iso(endedAt + 1), queueName, partitionName, runningChecks },
      });
      t = endedAt + 1000;
      if (verdict === 'reembarked') continue;

      let leaving = verdict === 'success' ? [] : riding;
      let merging = verdict === 'success' ? riding : [];
      if (verdict === 'failure' && riding.length > 1 && !bisected) {
        // Split the failed batch, find the culprit, and re-check the others.
        bisected = true;
        const culprit = riding[Math.floor(random.next() * riding.length)]!;
        const remaining = riding.filter((pr) => pr !== culprit);
        const bisection = { ...internal, queueName, partitionName, trainCarId, originalBatch: refs(riding) };
        events.push({
          type: 'merge_queue.batch_bisection_started',
          data: {
            ...bisection,
            occurredAt: iso(t),
            batchPullRequestNumbers: [...drafts],
            batchSizeBeforeSplit: riding.length,
            numberOfSubBatches: 2,
            bisectionDepth: 1,
            isTopLevel: true,
          },
        });
        t += random.between(10, 30) * MINUTE;
        events.push({
          type: 'merge_queue.batch_bisection_ended',
          data: {
            ...bisection,
            occurredAt: iso(t),
            batchPullRequestNumbers: [...drafts],
            culpritFound: true,
            culpritPullRequests: [culprit.number],
            remainingPullRequests: remaining.map((pr) => pr.number),
            maxFailureResolutionReached: false,
          },
        });
        leaving = [culprit];
        merging = [];
        riding = remaining;
      } else {
        riding = [];
      }

      for (const pr of leaving) {
        leave(pr, false, 'CHECKS_FAILED', 'merge queue internal');
      }
      for (const pr of merging) {
        t += random.between(10_000, 60_000);
        events.push({
          type: 'merge_queue.pull_request_merged',
          data: {
            repository,
            baseRef,
            trigger: pr.byCommand ? 'Command: queue' : `Rule: ${pr.rule}`,
            occurredAt: iso(t),
            pullRequest: pr.number,
            queueName,
            partitionNames: [partitionName],
            queuedAt: pr.queuedAt,
            priorityRuleName: pr.priorityRuleName,
            sessionId: pr.sessionId,
          },
        });
        leave(pr, true, 'PR_MERGED', pr.byCommand ? 'Command: queue' : `Rule: ${pr.rule}`);
      }
    }

    function leave(
      pr: (typeof members)[number],
      merged: boolean,
      dequeueCode: 'PR_MERGED' | 'CHECKS_FAILED',
      trigger: string,
    ): void {
      t += 1000;
      queueSize = Math.max(0, queueSize - 1);
      events.push({
        type: 'merge_queue.pull_request_left',
        data: {
          repository,
          baseRef,
          trigger,
          occurredAt: iso(t),
          pullRequest: pr.number,
          reason: merged
            ? 'Pull request has been merged'
            : 'The merge conditions cannot be satisfied due to failing checks\n\n- `tests`',
          merged,
          dequeueCode,
          queueName,
          partitionName,
          queuedAt: pr.queuedAt,
          secondsWaitingForSchedule: 0,
          secondsWaitingForFreeze: 0,
          priorityRuleName: pr.priorityRuleName,
          conditionsEvaluation: null,
          checks: [check('tests', merged ? 'success' : 'failure'), check('lint', 'success')],
          unsuccessfulChecks: merged ? [] : [check('tests', 'failure')],
          pullRequestHeadSha: random.sha(),
          sessionId: pr.sessionId,
        },
      });
      events.push({
        type: 'merge_queue.queue_size_changed',
        data: {
          ...internal,
          occurredAt: iso(t + 1),
          queueName,
          partitionName,
          priorityRuleName: pr.priorityRuleName,
          size: queueSize,
        },
      });
    }

    produced += events.length;
    yield { streamId: `merge_queue-${repository}-${trainCarId}`, events };
  }
}
