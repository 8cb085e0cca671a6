import type { CodeHost, PullRequestSnapshot } from '@switchyard/code-host';
import type { PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import type { CommandAccepted } from '@switchyard/code-host/pull-requests';
import type {
  BranchPushed,
  CheckRunReported,
  CommitStatusReported,
  PullRequestChanged,
} from '@switchyard/code-host/webhooks';
import type { RecordedEvent } from '@switchyard/event-store';
import type { Clock } from '@switchyard/kernel';
import type { ReactionContext, Reactor, ReadModelFreshness } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import { snapshottingMergeQueueDecider } from '../application/merge-queue.stream';
import type { MergeQueueCommand } from '../domain/commands';
import type { ChecksStarted } from '../domain/events';
import type { PullRequestScopesReported } from '../domain/scopes/pull-request-scopes';
import { batchById } from '../domain/train';
import { admit, priorityFor, stillAdmissible } from './admission';
import { judgeBatchChecks } from './checks-verdict';
import { QueueDesk, type IssueOnQueue } from './queue-desk';
import { FreezeWatch } from './freeze-watch';
import { queuesOf } from './queues.projection';
import { coordinatesOf } from './repository-configuration';

const SNAPSHOTS = 'code_host.pull_request_snapshots';
const QUEUES = 'merge_queue.queues';
const READ_MODEL_WAIT_MS = 30_000;

export const QUEUE_INTAKE_EVENT_TYPES = [
  'github.pull_request_read',
  'github.pull_request_changed',
  'github.command_accepted',
  'github.check_run_reported',
  'github.commit_status_reported',
  'github.branch_pushed',
  'merge_queue.paused',
  'merge_queue.pause_reason_changed',
  'merge_queue.unpaused',
  'scheduled_freeze.scheduled',
  'scheduled_freeze.changed',
  'scheduled_freeze.cancelled',
  'merge_queue.pull_request_scopes_reported',
  'merge_queue.checks_started',
] as const;

interface Logger {
  warn(object: object, message: string): void;
}

/**
 * Turns facts into queue commands (queue-semantics §1.7–§1.9, §2.4, §2.9, §4): a pull request's
 * snapshot changed or a `@mergify` command was accepted → enqueue, dequeue or refresh by the
 * repository's `.mergify.yml`; a check reported on a batch's check pull request → its checks'
 * verdict; a push to a queue's base → base moved; pause and freezes → the queues of the repository.
 * Commands go through the reaction context, so a reaction run again after a crash records nothing twice.
 */
export function createQueueIntakeReactor(deps: {
  desk: QueueDesk;
  codeHost: CodeHost;
  snapshots: PullRequestSnapshots;
  freezes: FreezeWatch;
  sql: SqlQueryable;
  freshness: ReadModelFreshness;
  clock: Clock;
  logger: Logger;
}): Reactor {
  const { desk, snapshots, freezes, sql, freshness, clock, codeHost } = deps;

  const issuer =
    (context: ReactionContext): IssueOnQueue =>
    (streamId, command) =>
      context.issue(streamId, snapshottingMergeQueueDecider, command);

  async function onPullRequest(context: ReactionContext, repository: string, number: number, action: string) {
    const snapshot = await snapshots.find(repository, number);
    if (!snapshot) return;
    const now = clock.now();
    const baseRef = snapshot.base.ref;
    const { state } = await desk.state(repository, baseRef);
    const queued = state.pullRequests[number];
    const at = now.getTime();
    const issue = async (command: MergeQueueCommand): Promise<void> => {
      await desk.issue(command, issuer(context));
    };
    // A running batch's check pull request (its draft, or itself checked in place).
    const checking = state.batches.some((b) => b.checkPullRequest === number && b.phase === 'running');
    const judge = () => (checking ? judgeChecks(context, repository, snapshot, 'checked head') : undefined);
    if (queued) {
      if (snapshot.merged) {
        // A passed batch's pull request is the queue's own merge in flight: its result is recorded by the effects.
        if (batchById(state, queued.batchId)?.phase === 'passed') return;
        return issue({
          kind: 'merged_outside_queue',
          repository,
          baseRef,
          at,
          pullRequest: number,
          sha: snapshot.mergeCommitSha ?? snapshot.base.sha,
        });
      }
      const dequeue = (code: 'PR_DEQUEUED' | 'PULL_REQUEST_UPDATED', reason: string) =>
        issue({
          kind: 'dequeue',
          repository,
          baseRef,
          at,
          pullRequest: number,
          code,
          reason,
          trigger: 'merge queue internal',
        });
      if (snapshot.state === 'closed') return dequeue('PR_DEQUEUED', 'The pull request was closed');
      const batch = batchById(state, queued.batchId);
      const checkedInPlace = batch?.checkMethod === 'in_place';
      if (
        snapshot.head.sha !== queued.headSha &&
        !checkedInPlace &&
        action !== 'labeled' &&
        action !== 'unlabeled'
      )
        return dequeue(
          'PULL_REQUEST_UPDATED',
          `The pull request was updated (new head ${snapshot.head.sha.slice(0, 7)})`,
        );
      const { configuration } = await desk.configurations.get(repository);
      if (!stillAdmissible(configuration, snapshot, now, queued.queueName))
        return dequeue('PR_DEQUEUED', 'The pull request no longer meets the queue conditions');
      await issue({
        kind: 'refresh',
        repository,
        baseRef,
        at,
        pullRequest: number,
        ...priorityFor(configuration, snapshot, now),
      });
      return judge();
    }
    if (snapshot.state === 'open' && checking) return judge();
    if (snapshot.state !== 'open' || snapshot.draft) return;
    const { configuration, policy } = await desk.configurations.get(repository);
    const admission = admit(configuration, snapshot, now, { kind: 'rule' }, policy.rules[0]!.name);
    if (admission) await enqueue(context, snapshot, admission, at);
  }

  async function enqueue(
    context: ReactionContext,
    snapshot: PullRequestSnapshot,
    admission: NonNullable<ReturnType<typeof admit>>,
    at: number,
  ) {
    const repository = snapshot.repository.fullName.toLowerCase();
    const baseRef = snapshot.base.ref;
    await desk.issue(
      {
        kind: 'enqueue',
        repository,
        baseRef,
        at,
        pullRequest: snapshot.number,
        queueName: admission.queueName,
        priority: admission.priority,
        priorityRuleName: admission.priorityRuleName,
        allowCheckInterruption: admission.allowCheckInterruption,
        headSha: snapshot.head.sha,
        ...(await desk.scopesOf(repository, snapshot.number)),
        dependsOn: dependsOnOf(snapshot.body),
        trigger: admission.trigger,
      },
      issuer(context),
    );
    await freezes.refresh(repository, baseRef, issuer(context));
  }

  async function onCommand(context: ReactionContext, data: CommandAccepted['data']) {
    const snapshot = await snapshots.find(data.repository, data.number);
    if (!snapshot || snapshot.state !== 'open') return;
    const now = clock.now();
    const at = now.getTime();
    const baseRef = snapshot.base.ref;
    const text = data.argument ? `${data.command} ${data.argument}` : data.command;
    if (data.command === 'dequeue') {
      await desk.issue(
        {
          kind: 'dequeue',
          repository: data.repository,
          baseRef,
          at,
          pullRequest: data.number,
          code: 'PR_MANUALLY_DEQUEUED',
          reason: `Dequeued by @${data.author.login}`,
          trigger: `Command: ${text}`,
        },
        issuer(context),
      );
      return;
    }
    if (data.command === 'refresh') return; // the reader's fresh read arrives as github.pull_request_read
    const { configuration, policy } = await desk.configurations.get(data.repository);
    const requested = data.command === 'queue' ? data.argument : null;
    const admission = admit(
      configuration,
      snapshot,
      now,
      { kind: 'command', requested, text },
      policy.rules[0]!.name,
    );
    if (admission) await enqueue(context, snapshot, admission, at);
  }

  async function onChecks(context: ReactionContext, repository: string, sha: string) {
    for (const checked of await snapshots.openWithHead(repository, sha))
      await judgeChecks(context, repository, checked, 'any head');
  }

  /**
   * Judges the checks of a running batch whose check pull request this is. From a snapshot that
   * changed (`checked head`), only while it shows the very commit the checks started on: a draft
   * can point at a commit CI already judged (a batch built again on the same base), and a pull
   * request checked in place can be read before or after its update, so no new check fact may
   * follow and its snapshot is the only place the verdict shows up.
   */
  async function judgeChecks(
    context: ReactionContext,
    repository: string,
    checked: PullRequestSnapshot,
    head: 'any head' | 'checked head',
  ): Promise<void> {
    const now = clock.now();
    const baseRef = checked.base.ref;
    const { state } = await desk.state(repository, baseRef);
    const batch = state.batches.find((b) => b.checkPullRequest === checked.number && b.phase === 'running');
    if (!batch) return;
    if (head === 'checked head' && batch.checkHeadSha !== checked.head.sha) return;
    const { configuration } = await desk.configurations.get(repository);
    const rule = configuration?.queueRules.find((r) => r.name === batch.queueName) ?? null;
    const found = await snapshots.findMany(repository, batch.pullRequests);
    const members = batch.pullRequests.flatMap((n) => found.get(n) ?? []);
    const verdict = judgeBatchChecks(rule, checked, members, now);
    if (verdict.conclusion === 'pending') return;
    await desk.issue(
      {
        kind: 'checks_reported',
        repository,
        baseRef,
        at: now.getTime(),
        batchId: batch.id,
        attempt: batch.attempt,
        conclusion: verdict.conclusion,
        unsuccessfulChecks: verdict.conclusion === 'failure' ? verdict.unsuccessfulChecks : [],
      },
      issuer(context),
    );
  }

  async function onPush(context: ReactionContext, data: BranchPushed['data']) {
    if (!data.ref.startsWith('refs/heads/') || data.deleted) return;
    const branch = data.ref.slice('refs/heads/'.length);
    const { defaultBranch } = await desk.configurations.get(data.repository);
    if (branch === defaultBranch) desk.configurations.forget(data.repository);
    const queue = (await queuesOf(sql, data.repository)).find((q) => q.baseRef === branch);
    if (!queue) return;
    if (await isMergeInFlight(queue.repository, branch, data.after)) return;
    await desk.issue(
      {
        kind: 'base_moved',
        repository: queue.repository,
        baseRef: branch,
        at: clock.now().getTime(),
        sha: data.after,
      },
      issuer(context),
    );
  }

  /**
   * Applies the pull request's scopes as they stand now, not as this report gave them: a report read
   * late (a lagging engine, a replay) would otherwise set older scopes over newer ones for a while,
   * and re-plan the queue twice; the scopes API may also have recorded them in the queue already.
   */
  async function onScopes(context: ReactionContext, data: PullRequestScopesReported['data']) {
    const current = await desk.scopesOf(data.repository, data.pullRequest);
    for (const queue of await queuesOf(sql, data.repository)) {
      const { state } = await desk.state(queue.repository, queue.baseRef);
      if (!state.pullRequests[data.pullRequest]) continue;
      await desk.issue(
        {
          kind: 'set_scopes',
          repository: queue.repository,
          baseRef: queue.baseRef,
          at: clock.now().getTime(),
          pullRequest: data.pullRequest,
          ...current,
        },
        issuer(context),
      );
    }
  }

  /**
   * The push notification of the queue's own merge can arrive before the effects reactor records
   * that merge: the pull request at the head of a passed batch merged into exactly this commit.
   */
  async function isMergeInFlight(repository: string, baseRef: string, sha: string): Promise<boolean> {
    const { state } = await desk.state(repository, baseRef);
    if (state.ownShas.includes(sha)) return false;
    for (const batch of state.batches) {
      if (batch.phase !== 'passed' || batch.pullRequests.length === 0) continue;
      const next = await codeHost.getPullRequestSummary(coordinatesOf(repository), batch.pullRequests[0]!);
      if (next.merged && next.mergeCommitSha === sha) return true;
    }
    return false;
  }

  async function onPause(context: ReactionContext, event: RecordedEvent) {
    const data = event.data as { repository: string; reason?: string };
    const paused = event.type !== 'merge_queue.unpaused';
    for (const queue of await queuesOf(sql, data.repository))
      await desk.issue(
        {
          kind: 'set_pause',
          repository: queue.repository,
          baseRef: queue.baseRef,
          at: clock.now().getTime(),
          paused,
          reason: paused ? (data.reason ?? null) : null,
        },
        issuer(context),
      );
  }

  return {
    name: 'merge_queue.intake',
    eventTypes: QUEUE_INTAKE_EVENT_TYPES,
    async react(event, context) {
      await freshness.waitFor(
        [SNAPSHOTS, QUEUES, 'repository.scheduled_freezes'],
        event.position,
        READ_MODEL_WAIT_MS,
      );
      switch (event.type) {
        case 'github.pull_request_read':
        case 'github.pull_request_changed': {
          const data = event.data as PullRequestChanged['data'];
          return onPullRequest(context, data.repository, data.number, data.action ?? 'read');
        }
        case 'github.command_accepted':
          return onCommand(context, event.data as CommandAccepted['data']);
        case 'github.check_run_reported': {
          const data = event.data as CheckRunReported['data'];
          return onChecks(context, data.repository, data.headSha);
        }
        case 'github.commit_status_reported': {
          const data = event.data as CommitStatusReported['data'];
          return onChecks(context, data.repository, data.sha);
        }
        case 'github.branch_pushed':
          return onPush(context, event.data as BranchPushed['data']);
        case 'merge_queue.checks_started': {
          // Checks in place may already be over: a pull request that was up to date keeps the
          // verdict CI gave its head before it was queued, and no new check fact will come.
          const data = event.data as ChecksStarted['data'];
          if (data.checkHeadSha) return onChecks(context, data.repository, data.checkHeadSha);
          return;
        }
        case 'merge_queue.pull_request_scopes_reported':
          return onScopes(context, event.data as PullRequestScopesReported['data']);
        case 'merge_queue.paused':
        case 'merge_queue.pause_reason_changed':
        case 'merge_queue.unpaused':
          return onPause(context, event);
        default: {
          const { repository } = event.data as { repository: string };
          for (const queue of await queuesOf(sql, repository))
            await freezes.refresh(queue.repository, queue.baseRef, issuer(context));
        }
      }
    },
  };
}

/** `Depends-On: #12` lines of a pull request body (same repository only). */
export const dependsOnOf = (body: string): number[] =>
  [...body.matchAll(/^\s*Depends-On:\s*#(\d+)\s*$/gim)].map((match) => Number(match[1]));
