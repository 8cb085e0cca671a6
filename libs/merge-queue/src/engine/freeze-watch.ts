import type { PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import type { Clock } from '@switchyard/kernel';
import { calendarFreezes, judgeFreezes } from '@switchyard/repository-controls';
import type { SqlQueryable } from '@switchyard/sql';
import { isFrozen } from '../domain/train';
import type { IssueOnQueue, QueueDesk } from './queue-desk';

/**
 * Tells a queue which of its pull requests the scheduled freezes hold now (queue-semantics §4.3),
 * judged by the freeze calendar over each queued pull request's snapshot. Called when a pull
 * request enters, when a freeze changes, and by the engine's timer (a window opens or closes).
 */
export class FreezeWatch {
  constructor(
    private readonly desk: QueueDesk,
    private readonly sql: SqlQueryable,
    private readonly snapshots: PullRequestSnapshots,
    private readonly clock: Clock,
  ) {}

  async refresh(repository: string, baseRef: string, issue: IssueOnQueue = this.desk.direct): Promise<void> {
    const now = this.clock.now();
    const { state } = await this.desk.state(repository, baseRef);
    const queued = Object.values(state.pullRequests);
    const current = queued.filter(isFrozen).map((pr) => pr.number);
    const freezes = queued.length === 0 ? [] : await calendarFreezes(this.sql, repository, now);
    const frozen: number[] = [];
    if (freezes.length > 0)
      for (const pr of queued) {
        const snapshot = await this.snapshots.find(repository, pr.number);
        if (!snapshot) continue;
        if (judgeFreezes(freezes, { pullRequest: snapshot, now }).some((verdict) => verdict.holds))
          frozen.push(pr.number);
      }
    if (same(frozen, current)) return;
    await this.desk.issue(
      { kind: 'set_frozen', repository, baseRef, at: now.getTime(), pullRequests: frozen },
      issue,
    );
  }
}

const same = (a: number[], b: number[]) =>
  a.length === b.length && [...a].sort((x, y) => x - y).join(',') === [...b].sort((x, y) => x - y).join(',');
