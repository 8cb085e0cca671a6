import type { Logger } from '@switchyard/kernel';
import { isCodeHostError, type CodeHost, type PullRequestSnapshot } from '@switchyard/code-host';
import type { CommandAccepted, PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import type {
  BranchPushed,
  CheckRunReported,
  CommitStatusReported,
  PullRequestChanged,
} from '@switchyard/code-host/facts';
import type { RecordedEvent } from '@switchyard/event-store';
import type { Clock } from '@switchyard/kernel';
import {
  untilReadModelsInclude,
  type ReactionContext,
  type Reactor,
  type ReadModelFreshness,
} from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import type { MergeQueueCommand } from '../domain/commands';
import type { ChecksStarted } from '../domain/events';
import { decideIntake, type IntakeFact, type PullRequestScene } from '../domain/intake/intake-decider';
import { invalidConfigurationCheck } from '../domain/intake/invalid-configuration';
import {
  decideBasePush,
  decideChecks,
  mergesInFlight,
  pauseCommands,
  runningBatchCheckedBy,
  scopesCommands,
} from '../domain/intake/queue-facts';
import type { PullRequestScopesReported } from '../domain/scopes/pull-request-scopes';
import type { FreezeWatch } from './freeze-watch';
import type { QueueDesk } from './queue-desk';
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

/**
 * Turns facts into queue commands. Each reaction loads what the intake's rules read (the pull
 * request's snapshot, its queue's state, the repository's configuration), decides with the pure
 * rules of domain/intake (intake-decider, queue-facts) and issues what they return. Commands go
 * through the reaction context, so a reaction run again after a crash records nothing twice.
 */
export function createQueueIntakeReactor(deps: {
  desk: QueueDesk;
  codeHost: CodeHost;
  snapshots: PullRequestSnapshots;
  freezes: FreezeWatch;
  sql: SqlQueryable;
  freshness: ReadModelFreshness;
  clock: Clock;
  logger: Pick<Logger, 'warn' | 'info'>;
}): Reactor {
  const { desk, snapshots, freezes, sql, freshness, clock, codeHost, logger } = deps;

  async function issueAll(context: ReactionContext, commands: readonly MergeQueueCommand[]): Promise<void> {
    for (const command of commands) {
      await desk.issue(context, command);
      // A pull request that entered may be held by a freeze already in force.
      if (command.kind === 'enqueue') await freezes.refresh(context, command.repository, command.baseRef);
    }
  }

  /** A fact about one pull request: load its scene, decide, issue; then judge it if it is a running batch's check pull request. */
  async function onPullRequest(
    context: ReactionContext,
    repository: string,
    number: number,
    fact: IntakeFact,
  ) {
    const snapshot = await snapshots.find(repository, number);
    if (!snapshot) return;
    const [{ state: queue }, { configuration, policy, problem }, scopes] = await Promise.all([
      desk.state(repository, snapshot.base.ref),
      desk.configurations.get(repository),
      desk.scopesOf(repository, number),
    ]);
    const now = clock.now();
    const scene: PullRequestScene = {
      snapshot,
      queue,
      scopes,
      configuration: { configuration, defaultQueueName: policy.rules[0]!.name, problem },
      now,
    };
    await issueAll(context, decideIntake(fact, scene));
    await reportInvalidConfiguration(repository, invalidConfigurationCheck(fact, scene));
    if (
      fact.kind === 'pull_request_changed' &&
      snapshot.state === 'open' &&
      runningBatchCheckedBy(queue, number)
    )
      await judgeChecks(context, repository, snapshot, 'checked head');
  }

  /** The failing check that says why the queue does not act on the pull request (a code host refusal is not retried). */
  async function reportInvalidConfiguration(
    repository: string,
    check: ReturnType<typeof invalidConfigurationCheck>,
  ): Promise<void> {
    if (!check) return;
    await codeHost
      .createCheckRun(coordinatesOf(repository), {
        name: check.name,
        headSha: check.headSha,
        status: 'completed',
        conclusion: 'failure',
        output: { title: check.title, summary: check.summary },
      })
      .catch((error: unknown) => {
        if (!isCodeHostError(error) || error.kind === 'unavailable') throw error;
      });
  }

  /**
   * A push to the default branch may change the file. When its verdict changes, the log says so;
   * when it turns valid again, its open pull requests are judged again (a label put on while it was
   * invalid queues the pull request now), as Mergify re-evaluates them on a configuration change.
   */
  async function onDefaultBranchPush(context: ReactionContext, repository: string, branch: string) {
    const before = (await desk.configurations.get(repository)).problem;
    desk.configurations.forget(repository);
    const after = (await desk.configurations.get(repository)).problem;
    if (after !== null && after !== before)
      logger.warn(
        { repository, problem: after },
        'The Mergify configuration is invalid: the queue takes in nothing new',
      );
    if (before === null || after !== null) return;
    logger.info({ repository }, 'The Mergify configuration is valid again: the queue takes pull requests in');
    for (const pullRequest of await snapshots.open(repository)) {
      if (pullRequest.base.ref !== branch) continue;
      await onPullRequest(context, repository, pullRequest.number, {
        kind: 'pull_request_changed',
        action: 'configuration_fixed',
      });
    }
  }

  async function onChecks(context: ReactionContext, repository: string, sha: string) {
    for (const checked of await snapshots.openWithHead(repository, sha))
      await judgeChecks(context, repository, checked, 'any head');
  }

  async function judgeChecks(
    context: ReactionContext,
    repository: string,
    checked: PullRequestSnapshot,
    head: 'any head' | 'checked head',
  ): Promise<void> {
    const baseRef = checked.base.ref;
    const { state: queue } = await desk.state(repository, baseRef);
    const batch = runningBatchCheckedBy(queue, checked.number);
    if (!batch) return;
    const { configuration } = await desk.configurations.get(repository);
    const found = await snapshots.findMany(repository, batch.pullRequests);
    const now = clock.now();
    const verdict = decideChecks({
      where: { repository, baseRef, at: now.getTime() },
      queue,
      checked,
      members: batch.pullRequests.flatMap((n) => found.get(n) ?? []),
      rule: configuration?.queueRules.find((r) => r.name === batch.queueName) ?? null,
      head,
      now,
    });
    if (verdict) await issueAll(context, [verdict]);
  }

  async function onPush(context: ReactionContext, data: BranchPushed['data']) {
    if (!data.ref.startsWith('refs/heads/') || data.deleted) return;
    const branch = data.ref.slice('refs/heads/'.length);
    const { defaultBranch } = await desk.configurations.get(data.repository);
    if (branch === defaultBranch) await onDefaultBranchPush(context, data.repository, branch);
    const queue = (await queuesOf(sql, data.repository)).find((q) => q.baseRef === branch);
    if (!queue) return;
    const { state } = await desk.state(queue.repository, branch);
    const inFlight = await Promise.all(
      mergesInFlight(state, data.after).map((n) =>
        codeHost.getPullRequestSummary(coordinatesOf(queue.repository), n),
      ),
    );
    const where = { repository: queue.repository, baseRef: branch, at: clock.now().getTime() };
    await issueAll(context, decideBasePush(where, data.after, inFlight));
  }

  /**
   * Applies the pull request's scopes as they stand now, not as this report gave them: a report read
   * late (a lagging engine, a replay) would otherwise set older scopes over newer ones for a while,
   * and re-plan the queue twice; the scopes API may also have recorded them in the queue already.
   */
  async function onScopes(context: ReactionContext, data: PullRequestScopesReported['data']) {
    const current = await desk.scopesOf(data.repository, data.pullRequest);
    const queues = await Promise.all(
      (await queuesOf(sql, data.repository)).map(async (queue) => ({
        ...queue,
        state: (await desk.state(queue.repository, queue.baseRef)).state,
      })),
    );
    await issueAll(context, scopesCommands(queues, { ...data, ...current }, clock.now().getTime()));
  }

  async function onPause(context: ReactionContext, event: RecordedEvent) {
    const data = event.data as { repository: string; reason?: string };
    const pause = { paused: event.type !== 'merge_queue.unpaused', reason: data.reason ?? null };
    await issueAll(
      context,
      pauseCommands(await queuesOf(sql, data.repository), pause, clock.now().getTime()),
    );
  }

  return {
    name: 'merge_queue.intake',
    eventTypes: QUEUE_INTAKE_EVENT_TYPES,
    async react(event, context) {
      // A snapshot read before it holds this fact would judge the pull request as it was before
      // (a label not yet seen), and nothing would judge it again: wait, or try the reaction again.
      // The queues and freezes read models only narrow what is judged; a lag there is waited for
      // a while and then decided on, as an operator may hold one back (a rebuild, a stopped runner).
      await untilReadModelsInclude(freshness, [SNAPSHOTS], event.position, READ_MODEL_WAIT_MS);
      await freshness.waitFor([QUEUES, 'repository.scheduled_freezes'], event.position, READ_MODEL_WAIT_MS);
      switch (event.type) {
        case 'github.pull_request_read':
        case 'github.pull_request_changed': {
          const data = event.data as PullRequestChanged['data'];
          const action = data.action ?? 'read';
          return onPullRequest(context, data.repository, data.number, {
            kind: 'pull_request_changed',
            action,
          });
        }
        case 'github.command_accepted': {
          const data = event.data as CommandAccepted['data'];
          return onPullRequest(context, data.repository, data.number, { kind: 'command', command: data });
        }
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
            await freezes.refresh(context, queue.repository, queue.baseRef);
        }
      }
    },
  };
}
