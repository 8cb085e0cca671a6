import type { SqlQueryable } from '@switchyard/sql';
import { queueStatistics, type QueueStatistics, type StatisticsWindow } from './queue-statistics';
import { queueFactsIn } from './queue-statistics.projection';

/** The statistics context's reads, answered from the `merge_queue.statistics` read model. */
export class QueueStatisticsQueries {
  constructor(private readonly sql: SqlQueryable) {}

  /** The queue's statistics over [since, until): one branch's, or the repository's when none. */
  async over(
    repository: string,
    branch: string | undefined,
    window: StatisticsWindow,
  ): Promise<QueueStatistics> {
    return queueStatistics(await queueFactsIn(this.sql, repository, branch, window), window);
  }
}
