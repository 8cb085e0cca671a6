import { isCodeHostError, type CodeHost } from '@switchyard/code-host';
import type { ReactionContext, Reactor } from '@switchyard/projection';
import type { MergeQueueEvent } from '../domain/events';
import { statusCommentsOf } from '../domain/policy';
import { policyOf } from '../domain/state';
import { statusCommentsFor } from '../domain/status-comments';
import { fencedCodeHost } from './fenced-code-host';
import type { QueueDesk } from './queue-desk';
import { coordinatesOf } from './repository-configuration';

/**
 * Posts the comments `status_comments` asks for (statusCommentsFor). A reactor of its own, with its
 * own checkpoint: a comment is a code-host write whose webhook comes back to the service, and the
 * queue's effects (drafts, merges) must not wait behind it.
 */
export function createStatusCommentsReactor(deps: { desk: QueueDesk; codeHost: CodeHost }): Reactor {
  const { desk } = deps;
  return {
    name: 'merge_queue.status_comments',
    // Comments tell what happens now: a deployment that gains this reactor never comments on its past.
    startsAtHead: true,
    eventTypes: [
      'merge_queue.pull_request_entered',
      'merge_queue.checks_started',
      'merge_queue.pull_request_left',
    ],
    async react(event, context: ReactionContext) {
      const codeHost = fencedCodeHost(deps.codeHost, () => context.assertOwnership());
      const { repository, baseRef } = event.data as { repository: string; baseRef: string };
      const { state } = await desk.state(repository, baseRef);
      const level = statusCommentsOf(policyOf(state).mergeQueue);
      for (const comment of statusCommentsFor(event as unknown as MergeQueueEvent, level))
        await codeHost
          .comment(coordinatesOf(repository), comment.pullRequest, comment.body)
          .catch((error) => {
            // A pull request that went away or is locked: nothing to tell.
            if (!isCodeHostError(error) || error.kind === 'unavailable') throw error;
          });
    },
  };
}
