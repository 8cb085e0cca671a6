import { isCodeHostError, type CodeHost } from '@switchyard/code-host';
import type { RecordedEvent } from '@switchyard/event-store';
import type { Clock } from '@switchyard/kernel';
import type { ReactionContext, Reactor } from '@switchyard/projection';
import { mergeQueueStreamId } from '../application/merge-queue.stream';
import type { MergeQueueCommand } from '../domain/commands';
import { mergeQueueEventTypes, type PullRequestEntered, type PullRequestLeft } from '../domain/events';
import { pendingEffects, type QueueEffect } from '../domain/planner';
import { policyOf } from '../domain/state';
import { QUEUE_CHECK_NAME } from '../domain/intake/checks-verdict';
import { fencedCodeHost } from './fenced-code-host';
import type { MergeGate } from './merge-gate';
import { performEffect } from './perform-effect';
import type { QueueDesk } from './queue-desk';
import { coordinatesOf } from './repository-configuration';

/** Rounds of effects one reaction performs before leaving the rest to the reactions of its own results. */
const MAX_ROUNDS = 20;

/** The pull requests a merge effect merges; none for any other effect. */
const mergedBy = (effect: QueueEffect): number[] =>
  effect.kind === 'merge' ? [effect.pullRequest] : effect.kind === 'merge_batch' ? effect.pullRequests : [];

/**
 * Carries out what the queue decided (queue-semantics §2.3, §2.7, §2.11): reads the queue's pending
 * effects from its state (drafts to create or update in place, merges, drafts to close), performs
 * them through the code host and records each result as a command whose idempotency key is the
 * effect's own (stable until it is done), so a crash between an effect and its result performs it
 * again safely and records it once. Right before a merge, the merge gate checks it against the pause
 * and the freeze calendar of that moment; a merge they hold is not performed, the hold is recorded
 * instead. Labels and the queue check run follow the enter and leave events.
 */
export function createQueueEffectsReactor(deps: {
  desk: QueueDesk;
  codeHost: CodeHost;
  gate: MergeGate;
  clock: Clock;
}): Reactor {
  const { desk, gate, clock } = deps;

  async function reportOnPullRequest(event: RecordedEvent, codeHost: CodeHost): Promise<void> {
    if (event.type !== 'merge_queue.pull_request_entered' && event.type !== 'merge_queue.pull_request_left')
      return;
    const data = event.data as PullRequestEntered['data'] | PullRequestLeft['data'];
    const repository = coordinatesOf(data.repository);
    const { state } = await desk.state(data.repository, data.baseRef);
    const { queuedLabel, dequeuedLabel } = policyOf(state).mergeQueue;
    const tolerate = (error: unknown) => {
      if (!isCodeHostError(error) || error.kind === 'unavailable') throw error;
    };
    if (event.type === 'merge_queue.pull_request_entered') {
      const entered = data as PullRequestEntered['data'];
      if (queuedLabel) {
        const labels = await codeHost
          .addLabels(repository, entered.pullRequest, [queuedLabel])
          .catch((error: unknown): string[] => {
            tolerate(error);
            return [];
          });
        // The two labels are toggled: a pull request queued again is no longer dequeued. The
        // answer lists the labels it has, so this costs no call when it has none to remove.
        if (dequeuedLabel && labels.includes(dequeuedLabel))
          await codeHost.removeLabel(repository, entered.pullRequest, dequeuedLabel).catch(tolerate);
      }
      await codeHost
        .createCheckRun(repository, {
          name: QUEUE_CHECK_NAME,
          headSha: entered.headSha,
          status: 'in_progress',
          output: {
            title: 'In merge queue',
            summary: `Queued in \`${entered.queueName}\` (${entered.trigger}).`,
          },
        })
        .catch(tolerate);
      return;
    }
    const left = data as PullRequestLeft['data'];
    if (queuedLabel) await codeHost.removeLabel(repository, left.pullRequest, queuedLabel).catch(tolerate);
    if (!left.merged && dequeuedLabel)
      await codeHost.addLabels(repository, left.pullRequest, [dequeuedLabel]).catch(tolerate);
    await codeHost
      .createCheckRun(repository, {
        name: QUEUE_CHECK_NAME,
        headSha: left.pullRequestHeadSha,
        status: 'completed',
        conclusion: left.merged ? 'success' : 'neutral',
        output: left.merged
          ? { title: 'Merged via merge queue', summary: left.reason }
          : { title: `Dequeued — ${left.reason}`.slice(0, 250), summary: left.reason },
      })
      .catch(tolerate);
  }

  async function performPending(
    event: RecordedEvent,
    codeHost: CodeHost,
    context: ReactionContext,
  ): Promise<void> {
    const { repository, baseRef } = event.data as { repository: string; baseRef: string };
    const streamId = mergeQueueStreamId(repository, baseRef);
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const { state, revision } = await desk.state(repository, baseRef);
      // A later event of this queue is still to be read: its reaction sees the same effects, and
      // more. That holds only because this reactor reads every event of the queue's stream.
      if (round === 0 && revision > event.revision) return;
      const effects = pendingEffects(state, clock.now().getTime());
      if (effects.length === 0) return;
      const scene = { repository, baseRef, state, now: () => clock.now().getTime() };
      for (const effect of effects) {
        const merging = mergedBy(effect);
        if (merging.length > 0) {
          // A hold is decided on the queue's state: issued again, it holds nothing twice.
          const recordHold = async (command: MergeQueueCommand) => {
            await desk.issue(context, command, { idempotencyKey: null });
          };
          // Held: the next round plans again on the state that knows why.
          if (await gate.holds(scene, merging, recordHold)) break;
        }
        const results = await performEffect(codeHost, effect, scene);
        for (const [index, command] of results.entries())
          await desk.issue(context, command, {
            idempotencyKey: `merge_queue.effects:${streamId}:${effect.key}:${index}`,
          });
        // A new draft changes what the drafts behind it start from (its head, not the base):
        // they are planned again on the state that knows it.
        if (effect.kind === 'create_draft') break;
      }
    }
  }

  return {
    name: 'merge_queue.effects',
    // Every event of the queue's stream, a logged command (`pull_request.command_received`) too: a
    // reaction leaves its effects to the reaction of any later event (above), so an event read by
    // none would strand them, a batch left preparing with no draft (issue 32).
    eventTypes: mergeQueueEventTypes,
    async react(event, context: ReactionContext) {
      // Every code-host call and command of this reaction is fenced: none once the reactor lost
      // its ownership (the context's issue checks it too).
      const codeHost = fencedCodeHost(deps.codeHost, () => context.assertOwnership());
      await reportOnPullRequest(event, codeHost);
      await performPending(event, codeHost, context);
    },
  };
}
