import type { PullRequestSnapshot } from '@switchyard/code-host';
import { PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import { pullRequestSnapshotsProjection } from '@switchyard/code-host/pull-requests/projection/pull-request-snapshots.projection';
import type { EventStore, Position } from '@switchyard/event-store';
import type { Clock } from '@switchyard/kernel';
import { scheduledFreezeProjection } from '@switchyard/repository-controls';
import { PgliteExecutor, type SqlExecutor } from '@switchyard/sql';
import { FreezeWatch } from '../freeze-watch';
import { MergeGate } from '../merge-gate';
import type { QueueDesk } from '../queue-desk';

/**
 * The read models the engine consults (pull-request snapshots, scheduled freezes) on an in-memory
 * PGlite, fed by running their real projections over the events a spec records.
 */
export class EngineReadModels {
  /** How far each store's events were projected. */
  private readonly read = new WeakMap<EventStore, Position | 'start'>();

  private constructor(readonly sql: SqlExecutor) {}

  static async open(): Promise<EngineReadModels> {
    const sql = await PgliteExecutor.open();
    await sql.transaction(async (tx) => {
      await pullRequestSnapshotsProjection.setup(tx);
      await scheduledFreezeProjection.setup(tx);
    });
    return new EngineReadModels(sql);
  }

  /** Projects the events of the store recorded since the last catch-up that these read models read. */
  async catchUp(store: EventStore): Promise<void> {
    const { events, lastPosition } = await store.readAll({
      after: this.read.get(store) ?? 'start',
      limit: 100_000,
    });
    this.read.set(store, lastPosition);
    await this.sql.transaction(async (tx) => {
      await pullRequestSnapshotsProjection.apply(
        tx,
        events.filter((e) => pullRequestSnapshotsProjection.eventTypes?.includes(e.type) ?? false),
      );
      await scheduledFreezeProjection.apply(
        tx,
        events.filter((e) => scheduledFreezeProjection.eventTypes?.includes(e.type) ?? false),
      );
    });
  }

  /** Empties the read models, for a spec's next story. */
  async reset(): Promise<void> {
    await this.sql.transaction(async (tx) => {
      await pullRequestSnapshotsProjection.reset(tx);
      await scheduledFreezeProjection.reset(tx);
    });
  }

  /** Records what the code host read of a pull request, as the pull-request reader does. */
  static async recordRead(store: EventStore, snapshot: PullRequestSnapshot, at: Date): Promise<void> {
    const repository = snapshot.repository.fullName.toLowerCase();
    await store.appendToStream(
      `spec-reads-${repository}-${snapshot.number}`,
      [
        {
          type: 'github.pull_request_read',
          data: { repository, number: snapshot.number, snapshot, reason: 'spec', at: at.toISOString() },
        },
      ],
      { expectedRevision: 'any' },
    );
  }

  freezeWatch(desk: QueueDesk, clock: Clock): FreezeWatch {
    return new FreezeWatch(desk, this.sql, new PullRequestSnapshots(this.sql), clock);
  }

  mergeGate(store: EventStore, desk: QueueDesk, clock: Clock): MergeGate {
    return new MergeGate(store, this.freezeWatch(desk, clock), clock);
  }

  close(): Promise<void> {
    return this.sql.close();
  }
}
