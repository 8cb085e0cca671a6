import { Inject, Injectable } from '@nestjs/common';
import { SQL_EXECUTOR } from '@switchyard/platform';
import type { SqlExecutor } from '@switchyard/sql';
import { mergeQueuePauseProjection } from '../projections/merge-queue-pause.projection';
import { findPause, type PauseView } from '../projections/merge-queue-pause.read-model';
import { PauseReadCache } from './pause-read-cache';

/**
 * The read models GET pause (and the legacy GET queue/pause) answers from: a pause or an unpause
 * answers once they include it (read-your-writes), and only they, so a lagging freeze projection
 * never slows a pause. The activity log is not among them: its reads catch up to the head themselves
 * (ActivityLogQueries).
 */
export const PAUSE_READ_MODELS: readonly string[] = [mergeQueuePauseProjection.name];

/**
 * GET pause, from the read cache: this process's own writes show at once (the pause handlers write
 * through writing()), other processes' within a second.
 */
@Injectable()
export class MergeQueuePauseQueries {
  private readonly cache = new PauseReadCache();

  constructor(@Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor) {}

  current(repository: string): Promise<PauseView | null> {
    return this.cache.read(repository, () => findPause(this.sql, repository));
  }

  /**
   * Runs a write of the repository's pause; once it ends (its read-your-writes wait included, timed
   * out or not) this process forgets the pause it cached, so its next GET reads the row.
   */
  async writing<T>(repository: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      this.cache.invalidate(repository);
    }
  }
}
