import type { PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import type { Clock } from '@switchyard/kernel';
import { calendarFreezes, judgeFreezes } from '@switchyard/repository-controls';
import type { SqlQueryable } from '@switchyard/sql';
import { isFrozen } from '../domain/train';
import type { CommandIssuer } from '@switchyard/projection';
import type { QueueDesk } from './queue-desk';

/**
 * How long before a freeze window opens its pull requests count as frozen: a merge started just
 * before the window would land inside it (a merge call on GitHub takes up to about a second).
 */
export const FREEZE_LEAD_MS = 2_000;

/**
 * Tells a queue which of its pull requests the scheduled freezes hold now (queue-semantics §4.3),
 * judged by the freeze calendar over each queued pull request's snapshot. Called when a pull
 * request enters, when a freeze changes, by the engine's timer (a window opens or closes), and by
 * the effects right before a merge.
 */
export class FreezeWatch {
  constructor(
    private readonly desk: QueueDesk,
    private readonly sql: SqlQueryable,
    private readonly snapshots: PullRequestSnapshots,
    private readonly clock: Clock,
  ) {}

  /** Issues through `issuer` (the processor's at work) what the freezes hold now, if that changed. */
  async refresh(issuer: CommandIssuer, repository: string, baseRef: string): Promise<void> {
    const now = this.clock.now();
    const { state } = await this.desk.state(repository, baseRef);
    const queued = Object.values(state.pullRequests);
    const current = queued.filter(isFrozen).map((pr) => pr.number);
    const frozen = await this.frozenAt(
      repository,
      queued.map((pr) => pr.number),
      now,
    );
    if (same(frozen, current)) return;
    await this.desk.issue(issuer, {
      kind: 'set_frozen',
      repository,
      baseRef,
      at: now.getTime(),
      pullRequests: frozen,
    });
  }

  /**
   * Which of these pull requests a scheduled freeze holds at `now`, or will hold within
   * FREEZE_LEAD_MS. A pull request without a snapshot is not judged.
   */
  async frozenAt(repository: string, pullRequests: readonly number[], now: Date): Promise<number[]> {
    if (pullRequests.length === 0) return [];
    const freezes = await calendarFreezes(this.sql, repository, now);
    if (freezes.length === 0) return [];
    const soon = new Date(now.getTime() + FREEZE_LEAD_MS);
    const snapshots = await this.snapshots.findMany(repository, pullRequests);
    const frozen: number[] = [];
    for (const number of pullRequests) {
      const snapshot = snapshots.get(number);
      if (!snapshot) continue;
      const holds = (at: Date) =>
        judgeFreezes(freezes, { pullRequest: snapshot, now: at }).some((verdict) => verdict.holds);
      if (holds(now) || holds(soon)) frozen.push(number);
    }
    return frozen;
  }
}

const same = (a: number[], b: number[]) =>
  a.length === b.length && [...a].sort((x, y) => x - y).join(',') === [...b].sort((x, y) => x - y).join(',');
