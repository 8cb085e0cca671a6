import type { RecordedEvent } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';

/**
 * How a projection fills fresh tables fast during a rebuild. Nobody reads or writes the tables
 * being built until the rebuild switches to them, so a bulk load may skip what only serving needs:
 * secondary indexes (built once at the end, much cheaper than maintained row by row), idempotence
 * guards, and tables derivable from the others in one pass. After finish, the tables must equal
 * what setup followed by apply over the same events gives; the rebuild then applies the tail of
 * the feed with apply.
 */
export interface BulkLoad {
  /** Creates the tables, with their primary keys but without the secondary indexes. */
  createTables(tx: SqlQueryable): Promise<void>;
  /** Applies a batch; the tables hold exactly the effect of the events before it, from the first. */
  apply(tx: SqlQueryable, events: readonly RecordedEvent[]): Promise<void>;
  /** After the last bulk batch: derives what apply left out, then creates the secondary indexes. */
  finish(tx: SqlQueryable): Promise<void>;
}
