import type { Projection } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import { mergeQueueEventTypes } from '../domain/events';

export const QUEUES_TABLE = 'merge_queue_queues';

/**
 * Every queue that exists (a repository's base branch with a queue stream): what the engine
 * visits when a repository-wide fact arrives (pause, freeze, a push) and on its timer.
 */
export const mergeQueueQueuesProjection: Projection = {
  name: 'merge_queue.queues',
  version: 1,
  eventTypes: mergeQueueEventTypes.filter((type) => type.startsWith('merge_queue.')),

  async setup(tx) {
    await tx.exec(`
      CREATE TABLE IF NOT EXISTS ${QUEUES_TABLE} (
        repository_key text NOT NULL,
        base_ref text NOT NULL,
        PRIMARY KEY (repository_key, base_ref)
      );
    `);
  },

  async reset(tx) {
    await tx.exec(`DELETE FROM ${QUEUES_TABLE};`);
  },

  async apply(tx, events) {
    const seen = new Set<string>();
    for (const event of events) {
      const data = event.data as { repository?: string; baseRef?: string };
      if (!data.repository || !data.baseRef) continue;
      const key = `${data.repository}\n${data.baseRef}`;
      if (seen.has(key)) continue;
      seen.add(key);
      await tx.query(
        `INSERT INTO ${QUEUES_TABLE} (repository_key, base_ref) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
        [data.repository.toLowerCase(), data.baseRef],
      );
    }
  },

  async countRecords(q) {
    const { rows } = await q.query<{ count: string | number }>(
      `SELECT count(*) AS count FROM ${QUEUES_TABLE}`,
    );
    return Number(rows[0]?.count ?? 0);
  },
};

export interface KnownQueue {
  repository: string;
  baseRef: string;
}

export async function queuesOf(sql: SqlQueryable, repository?: string): Promise<KnownQueue[]> {
  const { rows } = await sql.query<{ repository_key: string; base_ref: string }>(
    repository === undefined
      ? `SELECT repository_key, base_ref FROM ${QUEUES_TABLE} ORDER BY repository_key, base_ref`
      : `SELECT repository_key, base_ref FROM ${QUEUES_TABLE} WHERE repository_key = $1 ORDER BY base_ref`,
    repository === undefined ? [] : [repository.toLowerCase()],
  );
  return rows.map((row) => ({ repository: row.repository_key, baseRef: row.base_ref }));
}
