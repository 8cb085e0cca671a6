import type { RecordedEvent } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';
import type { BulkLoad } from './rebuild/bulk-load';

/**
 * A read model built from events. The runner calls apply inside the same transaction that moves the
 * projection's checkpoint, so rows and checkpoint always agree; apply must still be idempotent
 * (upserts, ON CONFLICT DO NOTHING) because a rebuild may replay what a crash left half-known.
 */
export interface Projection {
  /** Stable name, used by `rebuild <name>` and the checkpoint table. */
  readonly name: string;
  /** Bumping it makes the runner drop the rows and replay from the start. */
  readonly version: number;
  /** Event types this projection reads; undefined means every event. */
  readonly eventTypes?: readonly string[];
  /** Creates the read-model tables when missing. Idempotent. */
  setup(tx: SqlQueryable): Promise<void>;
  /** Deletes every row of the read model (before a replay). */
  reset(tx: SqlQueryable): Promise<void>;
  /**
   * Lets a batch's events be applied in concurrent transactions on a server database, one per
   * lane, each lane's events in feed order. Only for a projection whose events of different lanes
   * write disjoint rows (or rows where they commute, such as counters), and where applying an
   * event already applied changes nothing: the lanes commit before the checkpoint moves, so a crash
   * in between applies them again.
   */
  laneOf?(event: RecordedEvent): string;
  /** Applies events in global order. */
  apply(tx: SqlQueryable, events: readonly RecordedEvent[]): Promise<void>;
  /**
   * A faster path for rebuilds into fresh tables, new for each rebuild (so it may carry state from
   * batch to batch); without it a rebuild calls setup and apply.
   */
  bulkLoad?(): BulkLoad;
  /** Rows in the read model, for the rebuild summary. Optional. */
  countRecords?(q: SqlQueryable): Promise<number>;
}
