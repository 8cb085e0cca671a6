import type { RecordedEvent } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';

/**
 * How a projection fills fresh tables fast during a rebuild. Nobody reads or writes the tables
 * being built until the rebuild switches to them, so a bulk load may skip what only serving needs:
 * secondary indexes (built once at the end, much cheaper than maintained row by row), idempotence
 * guards, and tables derivable from the others in one pass. After finish, the tables must equal
 * what setup followed by apply over the same events gives; the rebuild then applies the tail of
 * the feed with apply. Each rebuild gets a BulkLoad of its own (Projection.bulkLoad), so one may
 * keep what it folds across batches in memory (aggregates written once by finish).
 */
export interface BulkLoad {
  /** Creates the tables, with their primary keys but without the secondary indexes. */
  createTables(tx: SqlQueryable): Promise<void>;
  /**
   * Applies a batch; the tables hold exactly the effect of the events before it, from the first
   * (with batchesInFlight above 1: once the earlier batches' transactions have committed).
   */
  apply(tx: SqlQueryable, events: readonly RecordedEvent[]): Promise<void>;
  /**
   * How many batches the rebuild may write at once, each in its own transaction (default 1), so
   * that preparing a batch in the process overlaps the database writing the one before. A batch's
   * apply is called only after the previous batch's was, so whatever apply does before its first
   * await happens in feed order; it must not read what earlier batches wrote, which may not have
   * committed yet.
   */
  readonly batchesInFlight?: number;
  /**
   * After the last bulk batch: what apply left out (derived tables) and the secondary indexes, as
   * steps independent of each other. The rebuild runs a few at once, each in a transaction of its
   * own, so that building one table's index overlaps writing or indexing another.
   */
  finishSteps(): ReadonlyArray<(tx: SqlQueryable) => Promise<void>>;
}
