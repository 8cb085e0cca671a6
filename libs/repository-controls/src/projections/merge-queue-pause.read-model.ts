import type { SqlQueryable } from '@switchyard/sql';
import { PAUSE_TABLE } from './merge-queue-pause.projection';

/** What the pause read model knows about a paused queue. */
export interface PauseView {
  reason: string;
  pausedAt: Date;
}

/** The pause of one repository, or null when its queue is not paused. */
export async function findPause(sql: SqlQueryable, repository: string): Promise<PauseView | null> {
  const { rows } = await sql.query<{ reason: string; paused_at: Date | string }>(
    `SELECT reason, paused_at FROM ${PAUSE_TABLE} WHERE repository_key = $1 AND paused`,
    [repository],
  );
  const row = rows[0];
  return row ? { reason: row.reason, pausedAt: new Date(row.paused_at) } : null;
}
