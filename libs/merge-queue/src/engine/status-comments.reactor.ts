import { isCodeHostError, type CodeHost, type RepositoryCoordinates } from '@switchyard/code-host';
import type { ReactionContext, Reactor } from '@switchyard/projection';
import type { MergeQueueEvent } from '../domain/events';
import { statusCommentsOf } from '../domain/policy';
import { policyOf } from '../domain/state';
import { isStatusComment, statusCommentBody, statusLinesFor } from '../domain/status-comments';
import { fencedCodeHost } from './fenced-code-host';
import type { QueueDesk } from './queue-desk';
import { coordinatesOf } from './repository-configuration';

interface WrittenComment {
  id: number;
  body: string;
}

/**
 * Keeps one status comment per pull request, as `status_comments` asks (statusLinesFor): the first
 * line creates it, every later one edits it (statusCommentBody). GitHub's secondary limit counts
 * content creation (80 a minute, 500 an hour), so a pull request that enters, is checked and
 * merges costs one comment created and two edits, not three comments.
 *
 * A reactor of its own, with its own checkpoint: a comment is a code-host write whose webhook comes
 * back to the service, and the queue's effects (drafts, merges) must not wait behind it.
 *
 * The comment is found again by its hidden marker among the pull request's comments of our own,
 * so a reaction run again after a crash between the POST and the checkpoint edits the comment it
 * made instead of making a second one; the marker names the event last written, so running again
 * never adds its line twice. This process remembers the comments it wrote while their pull request
 * is queued, saving the listing on every line after the first (the budget counts calls too), and
 * forgets them when the pull request leaves or when a reaction fails (the next one reads GitHub).
 */
export function createStatusCommentsReactor(deps: { desk: QueueDesk; codeHost: CodeHost }): Reactor {
  const { desk } = deps;
  const written = new Map<string, WrittenComment>();
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
      const coordinates = coordinatesOf(repository);
      try {
        for (const { pullRequest, line } of statusLinesFor(event as unknown as MergeQueueEvent, level)) {
          const key = `${repository}#${pullRequest}`;
          const comment = await writeStatus(codeHost, coordinates, pullRequest, written.get(key), (body) =>
            statusCommentBody(body, line, event.eventId),
          ).catch((error: unknown) => {
            // A pull request that went away or is locked: nothing to tell.
            if (!isCodeHostError(error) || error.kind === 'unavailable') throw error;
            return undefined;
          });
          if (comment && event.type !== 'merge_queue.pull_request_left') written.set(key, comment);
          else written.delete(key);
        }
      } catch (error) {
        // What this process remembers may no longer be what GitHub holds (a write that failed
        // half-way, a lease lost): the next reaction reads the comments again.
        written.clear();
        throw error;
      }
    },
  };
}

/** Edits the pull request's status comment with the body `next` makes of it, or creates it. */
async function writeStatus(
  codeHost: CodeHost,
  repository: RepositoryCoordinates,
  pullRequest: number,
  remembered: WrittenComment | undefined,
  next: (previous: string | null) => string | null,
): Promise<WrittenComment> {
  const existing = remembered ?? (await findStatusComment(codeHost, repository, pullRequest));
  if (existing) {
    const body = next(existing.body);
    if (body === null) return existing;
    try {
      await codeHost.updateComment(repository, existing.id, body);
      return { id: existing.id, body };
    } catch (error) {
      // Deleted by someone: the pull request gets a new one.
      if (!isCodeHostError(error, 'not-found')) throw error;
    }
  }
  const body = next(null)!;
  const created = await codeHost.comment(repository, pullRequest, body);
  return { id: created.id, body };
}

/** The newest status comment of our own on the pull request, if any. */
async function findStatusComment(
  codeHost: CodeHost,
  repository: RepositoryCoordinates,
  pullRequest: number,
): Promise<WrittenComment | undefined> {
  const comments = await codeHost.listComments(repository, pullRequest);
  const ours = comments.filter((comment) => comment.ownComment && isStatusComment(comment.body));
  const newest = ours.at(-1);
  return newest && { id: newest.id, body: newest.body };
}
