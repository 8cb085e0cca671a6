import type { PullRequestSnapshot } from '@switchyard/code-host';
import type { CommandAccepted } from '@switchyard/code-host/pull-requests';
import type { MergifyConfiguration } from '@switchyard/config';
import type { CommandOrigin, Dequeue, Enqueue, MergeQueueCommand } from '../commands';
import type { CommandAuthor } from '../events';
import { ruleMayRequeue } from '../requeue';
import type { Batch, QueueState } from '../state';
import { batchById } from '../train';
import { admit, priorityFor, stillAdmissible, type Admission } from './admission';
import { configurationHoldsIntake } from './invalid-configuration';

/**
 * The merge queue's intake rules (queue-semantics §1.7–§1.9, §2.9): how facts from the code host
 * become queue commands. Pure: `(fact, pull-request snapshot, queue state, configuration, now) →
 * commands`. The intake reactor loads what these functions read, calls them and issues what they
 * return; nothing here reads a clock, a database or the code host.
 */

/** The repository's `.mergify.yml` as the intake reads it. */
export interface IntakeConfiguration {
  /** null when the file is missing or invalid: no rule queues anything. */
  configuration: MergifyConfiguration | null;
  /** The queue a command goes to without a configuration: the policy's first (implicit) rule. */
  defaultQueueName: string;
  /** Why the file is invalid (its errors with line and column), null when it is valid or missing. */
  problem: string | null;
}

/** What the intake knows about one pull request when a fact about it arrives. */
export interface PullRequestScene {
  snapshot: PullRequestSnapshot;
  /** The queue of the snapshot's base branch. */
  queue: QueueState;
  /** The scopes CI reported for it (none yet: no scopes). */
  scopes: { scopes: string[]; allScopes: boolean };
  configuration: IntakeConfiguration;
  now: Date;
}

/** A pull request changed (a webhook, `github.pull_request_changed`) or was read again (`github.pull_request_read`). */
export interface PullRequestChangedFact {
  kind: 'pull_request_changed';
  /** The webhook's action (`labeled`, `synchronize`...) or the read's reason. */
  action: string;
}

/** A `@mergify` command its author may give (`github.command_accepted`). */
export interface CommandFact {
  kind: 'command';
  command: CommandAccepted['data'];
}

export type IntakeFact = PullRequestChangedFact | CommandFact;

export const CLOSED_REASON = 'The pull request was closed';
export const CONDITIONS_REASON = 'The pull request no longer meets the queue conditions';

/** The commands a fact about one pull request leads to, in the order they are issued. */
export function decideIntake(fact: IntakeFact, scene: PullRequestScene): MergeQueueCommand[] {
  if (configurationHoldsIntake(scene, fact)) return [];
  return fact.kind === 'command' ? decideCommand(fact.command, scene) : decideChange(fact.action, scene);
}

/**
 * A pull request's snapshot changed. Queued: merged by someone else, closed, pushed to or no
 * longer meeting its queue's `queue_conditions` (a label they name removed), it leaves; a
 * `pull_request_rules` entry that stops matching does not take it out (only its queue's conditions
 * do, queue-semantics §1.8). Otherwise its priority is judged again. Not queued: a rule whose
 * conditions match queues it, unless it left for a reason that holds rules back and nothing changed
 * since (requeue.ts).
 */
function decideChange(action: string, scene: PullRequestScene): MergeQueueCommand[] {
  const { snapshot, queue, configuration, now } = scene;
  const where = whereOf(scene);
  const number = snapshot.number;
  const queued = queue.pullRequests[number];
  if (queued) {
    const batch = batchById(queue, queued.batchId);
    if (snapshot.merged) {
      if (isMergeInFlight(batch)) return [];
      return [
        {
          kind: 'merged_outside_queue',
          ...where,
          pullRequest: number,
          sha: snapshot.mergeCommitSha ?? snapshot.base.sha,
        },
      ];
    }
    if (snapshot.state === 'closed') return [dequeue(where, number, 'PR_DEQUEUED', CLOSED_REASON)];
    // A label's webhook carries the pull request as it was when labelled, possibly before a push
    // whose own webhook follows. Checked in place, the queue moves the head itself: to a commit
    // not known yet while it updates the branch, then to the one its checks run on.
    const movedByQueue =
      batch?.checkMethod === 'in_place' &&
      (batch.phase === 'preparing' || snapshot.head.sha === batch.checkHeadSha);
    const pushed =
      snapshot.head.sha !== queued.headSha && !movedByQueue && action !== 'labeled' && action !== 'unlabeled';
    if (pushed)
      return [
        dequeue(
          where,
          number,
          'PULL_REQUEST_UPDATED',
          `The pull request was updated (new head ${snapshot.head.sha.slice(0, 7)})`,
        ),
      ];
    if (!stillAdmissible(configuration.configuration, snapshot, now, queued.queueName))
      return [dequeue(where, number, 'PR_DEQUEUED', CONDITIONS_REASON)];
    return [
      {
        kind: 'refresh',
        ...where,
        pullRequest: number,
        ...priorityFor(configuration.configuration, snapshot, now),
      },
    ];
  }
  if (snapshot.state !== 'open' || snapshot.draft) return [];
  if (!ruleMayRequeue(queue.departures?.[number], snapshot.head.sha)) return [];
  const admission = admit(
    configuration.configuration,
    snapshot,
    now,
    { kind: 'rule' },
    configuration.defaultQueueName,
  );
  return admission ? [enqueue(scene, admission)] : [];
}

/**
 * `@mergify queue [name]` / `requeue` queue the pull request if a queue rule admits it, whatever it
 * left for before (the command is the change); `dequeue` takes it out, and no rule puts it back until
 * another command. `refresh` is carried out by the reader: its read arrives as a change of its own.
 */
function decideCommand(command: CommandAccepted['data'], scene: PullRequestScene): MergeQueueCommand[] {
  const { snapshot, configuration, now } = scene;
  if (snapshot.state !== 'open') return [];
  const text = command.argument ? `${command.command} ${command.argument}` : command.command;
  const origin = originOf(command);
  const where = whereOf(scene);
  switch (command.command) {
    case 'refresh':
      return [];
    case 'dequeue':
      return [
        {
          ...dequeue(where, snapshot.number, 'PR_MANUALLY_DEQUEUED', `Dequeued by @${command.author.login}`),
          trigger: `Command: ${text}`,
          origin,
        },
      ];
    case 'queue':
    case 'requeue': {
      const admission = admit(
        configuration.configuration,
        snapshot,
        now,
        { kind: 'command', requested: command.argument, text },
        configuration.defaultQueueName,
      );
      return admission ? [{ ...enqueue(scene, admission), origin }] : [];
    }
  }
}

/** A passed batch's pull request shown merged is the queue's own merge, whose result the effects record. */
const isMergeInFlight = (batch: Batch | undefined): boolean => batch?.phase === 'passed';

const whereOf = (scene: PullRequestScene) => ({
  repository: scene.snapshot.repository.fullName.toLowerCase(),
  baseRef: scene.snapshot.base.ref,
  at: scene.now.getTime(),
});

const dequeue = (
  where: ReturnType<typeof whereOf>,
  pullRequest: number,
  code: Dequeue['code'],
  reason: string,
): Dequeue => ({
  kind: 'dequeue',
  ...where,
  pullRequest,
  code,
  reason,
  trigger: 'merge queue internal',
});

const enqueue = (scene: PullRequestScene, admission: Admission): Enqueue => ({
  kind: 'enqueue',
  ...whereOf(scene),
  pullRequest: scene.snapshot.number,
  queueName: admission.queueName,
  priority: admission.priority,
  priorityRuleName: admission.priorityRuleName,
  allowCheckInterruption: admission.allowCheckInterruption,
  headSha: scene.snapshot.head.sha,
  scopes: scene.scopes.scopes,
  allScopes: scene.scopes.allScopes,
  dependsOn: dependsOnOf(scene.snapshot.body),
  trigger: admission.trigger,
});

const AUTHOR_TYPES: ReadonlySet<string> = new Set(['User', 'Organization', 'Bot', 'Mannequin', 'Enterprise']);

const originOf = (command: CommandAccepted['data']): CommandOrigin => ({
  command: command.command,
  author: {
    login: command.author.login,
    id: command.author.id,
    type: AUTHOR_TYPES.has(command.author.type) ? (command.author.type as CommandAuthor['type']) : null,
  },
  commentId: command.commentId,
  commandTrigger: 'comment',
  triggerCommentUrl: command.commentUrl,
});

/** `Depends-On: #12` lines of a pull request body (same repository only). */
export const dependsOnOf = (body: string): number[] =>
  [...body.matchAll(/^\s*Depends-On:\s*#(\d+)\s*$/gim)].map((match) => Number(match[1]));
