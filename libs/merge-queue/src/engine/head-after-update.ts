import { setTimeout as sleep } from 'node:timers/promises';
import type { CodeHost, PullRequestSummary, RepositoryCoordinates } from '@switchyard/code-host';

/** First wait between reads, doubled each time up to the last; about 30 s in all. */
const WAITS_MS = [100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000, 5000, 5000];

/**
 * The pull request once its head is no longer `previousHead`, or null when it has not moved after
 * about 30 s. GitHub answers `update-branch` (202 Accepted) before the branch has moved, so a read
 * right after it can still show the old head: checks judged on that head would let the queue merge
 * a commit it never checked. The sandbox forge moves the branch before answering, so there the
 * first read is the answer.
 */
export async function headAfterUpdate(
  codeHost: CodeHost,
  repository: RepositoryCoordinates,
  pullRequest: number,
  previousHead: string,
): Promise<PullRequestSummary | null> {
  for (const wait of [0, ...WAITS_MS]) {
    if (wait > 0) await sleep(wait);
    const current = await codeHost.getPullRequestSummary(repository, pullRequest);
    if (current.head.sha !== previousHead || current.state !== 'open') return current;
  }
  return null;
}
