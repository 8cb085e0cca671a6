import type { Projection } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import { mergeQueueEventTypes } from '../domain/events';

export const QUEUES_TABLE = 'merge_queue_queues';
export const QUEUE_MEMBERS_TABLE = 'merge_queue_queue_members';

/** The events that put a pull request in a queue (true) or take it out (false), as evolveQueue does. */
const MEMBERSHIP: Partial<Record<string, boolean>> = {
  'merge_queue.pull_request_entered': true,
  'merge_queue.pull_request_merged': false,
  'merge_queue.pull_request_left': false,
};

/**
 * Every queue that exists (a repository's base branch with a queue stream): what the engine
 * visits when a repository-wide fact arrives (pause, freeze, a push). And the pull requests each
 * queue holds, by the same events that add and remove them in the queue's state (entered; merged or
 * left): the engine's timer visits only queues that hold some, instead of loading every queue's
 * stream every second, which an installation with many idle repositories would pay for nothing.
 */
export const mergeQueueQueuesProjection: Projection = {
  name: 'merge_queue.queues',
  version: 2,
  eventTypes: mergeQueueEventTypes.filter((type) => type.startsWith('merge_queue.')),

  async setup(tx) {
    await tx.exec(`
      CREATE TABLE IF NOT EXISTS ${QUEUES_TABLE} (
        repository_key text NOT NULL,
        base_ref text NOT NULL,
        PRIMARY KEY (repository_key, base_ref)
      );
      CREATE TABLE IF NOT EXISTS ${QUEUE_MEMBERS_TABLE} (
        repository_key text NOT NULL,
        base_ref text NOT NULL,
        pull_request integer NOT NULL,
        PRIMARY KEY (repository_key, base_ref, pull_request)
      );
    `);
  },

  async reset(tx) {
    await tx.exec(`DELETE FROM ${QUEUES_TABLE}; DELETE FROM ${QUEUE_MEMBERS_TABLE};`);
  },

  async apply(tx, events) {
    // A batch ends with each pull request where its last entered/merged/left put it, so a batch
    // costs three statements however many events it holds (a rebuild hands over thousands).
    const queues = new Map<string, [string, string]>();
    const membership = new Map<string, { queue: [string, string]; pullRequest: number; member: boolean }>();
    for (const event of events) {
      const data = event.data as { repository?: string; baseRef?: string; pullRequest?: number };
      if (!data.repository || !data.baseRef) continue;
      const queue: [string, string] = [data.repository.toLowerCase(), data.baseRef];
      const key = queue.join('\n');
      queues.set(key, queue);
      const member = MEMBERSHIP[event.type];
      if (member !== undefined && data.pullRequest !== undefined)
        membership.set(`${key}\n${data.pullRequest}`, { queue, pullRequest: data.pullRequest, member });
    }
    if (queues.size === 0) return;
    const rows = [...queues.values()];
    await tx.query(
      `INSERT INTO ${QUEUES_TABLE} (repository_key, base_ref) SELECT * FROM unnest($1::text[], $2::text[])
       ON CONFLICT DO NOTHING`,
      [rows.map(([repository]) => repository), rows.map(([, baseRef]) => baseRef)],
    );
    const changes = [...membership.values()];
    const columns = (member: boolean) => {
      const chosen = changes.filter((change) => change.member === member);
      return [
        chosen.map((change) => change.queue[0]),
        chosen.map((change) => change.queue[1]),
        chosen.map((change) => change.pullRequest),
      ];
    };
    if (changes.some((change) => change.member))
      await tx.query(
        `INSERT INTO ${QUEUE_MEMBERS_TABLE} (repository_key, base_ref, pull_request)
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[]) ON CONFLICT DO NOTHING`,
        columns(true),
      );
    if (changes.some((change) => !change.member))
      await tx.query(
        `DELETE FROM ${QUEUE_MEMBERS_TABLE} m USING unnest($1::text[], $2::text[], $3::int[]) AS gone(r, b, n)
         WHERE m.repository_key = gone.r AND m.base_ref = gone.b AND m.pull_request = gone.n`,
        columns(false),
      );
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

type QueueRow = { repository_key: string; base_ref: string };

const knownQueue = (row: QueueRow): KnownQueue => ({ repository: row.repository_key, baseRef: row.base_ref });

export async function queuesOf(sql: SqlQueryable, repository?: string): Promise<KnownQueue[]> {
  const { rows } = await sql.query<QueueRow>(
    repository === undefined
      ? `SELECT repository_key, base_ref FROM ${QUEUES_TABLE} ORDER BY repository_key, base_ref`
      : `SELECT repository_key, base_ref FROM ${QUEUES_TABLE} WHERE repository_key = $1 ORDER BY base_ref`,
    repository === undefined ? [] : [repository.toLowerCase()],
  );
  return rows.map(knownQueue);
}

/** PostgreSQL's undefined_table (PGlite reports the same code). */
const UNDEFINED_TABLE = '42P01';

/**
 * The queues that hold at least one pull request: the only ones a timer has anything to do for.
 * While the rebuild that brings the members table (version 2) runs, the generation served is the
 * one before it, which has none: then every known queue, as the timer visited before.
 */
export async function occupiedQueuesOf(sql: SqlQueryable): Promise<KnownQueue[]> {
  try {
    const { rows } = await sql.query<QueueRow>(
      `SELECT DISTINCT repository_key, base_ref FROM ${QUEUE_MEMBERS_TABLE} ORDER BY repository_key, base_ref`,
    );
    return rows.map(knownQueue);
  } catch (error) {
    if ((error as { code?: unknown }).code !== UNDEFINED_TABLE) throw error;
    return queuesOf(sql);
  }
}
