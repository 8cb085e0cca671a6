import { Inject, Injectable } from '@nestjs/common';
import type { Clock } from '@switchyard/kernel';
import { CLOCK, SQL_EXECUTOR } from '@switchyard/platform';
import type { SqlExecutor } from '@switchyard/sql';
import type { ScheduledFreezeJson } from '../json/scheduled-freeze.json';
import { scheduledFreezeProjection } from '../projections/scheduled-freeze.projection';
import { findFreeze, listCurrentFreezes } from '../projections/scheduled-freeze.read-model';

/**
 * The read models GET scheduled_freeze answers from: a freeze command
 * answers once they include it (read-your-writes), and only they, so a lagging pause projection
 * never slows a freeze.
 */
export const FREEZE_READ_MODELS: readonly string[] = [scheduledFreezeProjection.name];

/** Scheduled freezes of a repository, from the freeze read model. */
@Injectable()
export class ScheduledFreezeQueries {
  constructor(
    @Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Ongoing and scheduled freezes, in start order. */
  list(repository: string): Promise<ScheduledFreezeJson[]> {
    return listCurrentFreezes(this.sql, repository, this.clock.now());
  }

  find(repository: string, freezeId: string): Promise<ScheduledFreezeJson | null> {
    return findFreeze(this.sql, repository, freezeId);
  }
}
