import type { EventStore } from '@switchyard/event-store';
import {
  pullRequestSnapshotsProjection,
  SNAPSHOT_TABLE,
} from '@switchyard/code-host/pull-requests/projection/pull-request-snapshots.projection';
import { readCheckpoints } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import type { MergeQueueEvent } from '../domain/events';
import {
  ACTIVITY_BUCKET_MS,
  HISTORY_EVERY,
  QUEUE_ACTIVITY_TABLE,
  QUEUE_STATUS_HISTORY_TABLE,
  QUEUE_STATUS_TABLE,
  queueStatusProjection,
} from './queue-status.projection';
import { evolveStatus, initialStatusFold, type QueueStatusFold } from './status-fold';

export interface QueueFold {
  baseRef: string;
  streamId: string;
  /** The stream revision the fold includes (-1 unknown for folds at a past moment). */
  revision: string;
  fold: QueueStatusFold;
}

/** A queue's row in the status read model, without its fold. */
export type LiveRevision = Pick<StatusRow, 'base_ref' | 'stream_id' | 'revision'>;

interface StatusRow {
  base_ref: string;
  stream_id: string;
  revision: string | number;
  first_event_at: string | number;
}

/**
 * Reads the queues of a repository as the status projection keeps them (live), or as they were at
 * a past moment: the projection's nearest earlier fold of each queue plus the stream's events up
 * to that moment. Parsed live folds are cached by stream revision (a fold of 500 pull requests is
 * worth not parsing per request).
 */
export class QueueStatusReader {
  private readonly parsed = new Map<string, { revision: string; fold: QueueStatusFold }>();
  /** Parsed history folds (immutable values), the few most recently used. */
  private readonly history = new Map<string, QueueStatusFold>();

  constructor(
    private readonly sql: SqlQueryable,
    private readonly store: EventStore,
  ) {}

  private async rows(repository: string, branch?: string): Promise<StatusRow[]> {
    const { rows } = await this.sql.query<StatusRow>(
      `SELECT base_ref, stream_id, revision, first_event_at FROM ${QUEUE_STATUS_TABLE}
       WHERE repository_key = $1 ${branch === undefined ? '' : 'AND base_ref = $2'} ORDER BY base_ref`,
      branch === undefined ? [repository.toLowerCase()] : [repository.toLowerCase(), branch],
    );
    return rows;
  }

  /**
   * Branches with a merge queue: every base branch whose queue has had an event. A queue that
   * drained stays listed, idle (as `merge-queue/status?branch=` still answers for it, and as the
   * legacy `queues/branches` lists it for the day after its last activity).
   */
  async queueBranches(repository: string): Promise<string[]> {
    const { rows } = await this.sql.query<{ base_ref: string }>(
      `SELECT base_ref FROM ${QUEUE_STATUS_TABLE} WHERE repository_key = $1 ORDER BY base_ref`,
      [repository.toLowerCase()],
    );
    return rows.map((row) => row.base_ref);
  }

  /** Repositories (lower-case `owner/name`) of these accounts with a merge queue, by name. */
  async queueRepositories(accounts: readonly string[]): Promise<string[]> {
    if (accounts.length === 0) return [];
    const { rows } = await this.sql.query<{ repository_key: string }>(
      `SELECT DISTINCT repository_key FROM ${QUEUE_STATUS_TABLE}
       WHERE split_part(repository_key, '/', 1) = ANY($1::text[]) ORDER BY repository_key`,
      [accounts.map((account) => account.toLowerCase())],
    );
    return rows.map((row) => row.repository_key);
  }

  /** Base branches whose queue had events between the two instants (epoch ms, minute precision). */
  async branchesActiveBetween(repository: string, start: number, end: number): Promise<string[]> {
    const { rows } = await this.sql.query<{ base_ref: string }>(
      `SELECT DISTINCT base_ref FROM ${QUEUE_ACTIVITY_TABLE}
       WHERE repository_key = $1 AND minute BETWEEN $2 AND $3 ORDER BY base_ref`,
      [
        repository.toLowerCase(),
        Math.floor(start / ACTIVITY_BUCKET_MS),
        Math.floor(end / ACTIVITY_BUCKET_MS),
      ],
    );
    return rows.map((row) => row.base_ref);
  }

  async live(repository: string, branch?: string): Promise<QueueFold[]> {
    return this.folds(await this.rows(repository, branch));
  }

  /**
   * Where the status and snapshot read models stand, from their checkpoints (one primary-key read).
   * A checkpoint moves in the same transaction as its rows, so while neither moved no queue and no
   * snapshot changed. Null while one has no checkpoint (read models filled by hand, as in specs).
   */
  async readModelsPosition(): Promise<string | null> {
    const checkpoints = await readCheckpoints(this.sql, WATCHED_READ_MODELS);
    const positions: string[] = [];
    for (const name of WATCHED_READ_MODELS) {
      const checkpoint = checkpoints.get(name);
      if (!checkpoint) return null;
      positions.push(`${name}@${checkpoint.version}:${checkpoint.position}`);
    }
    return positions.join(',');
  }

  /**
   * Which revision of each queue the read model holds now, and how far the pull-request snapshots
   * have gone for the repository: what a live answer is made from, read in one query.
   */
  async liveRevisions(
    repository: string,
    branch?: string,
  ): Promise<{ revisions: LiveRevision[]; snapshotsPosition: string }> {
    const { rows } = await this.sql.query<LiveRevision & { snapshots_position: string | null }>(
      `SELECT base_ref, stream_id, revision,
              (SELECT max(last_position) FROM ${SNAPSHOT_TABLE} WHERE repository_key = $1) AS snapshots_position
       FROM ${QUEUE_STATUS_TABLE}
       WHERE repository_key = $1 ${branch === undefined ? '' : 'AND base_ref = $2'} ORDER BY base_ref`,
      branch === undefined ? [repository.toLowerCase()] : [repository.toLowerCase(), branch],
    );
    return { revisions: rows, snapshotsPosition: rows[0]?.snapshots_position ?? '' };
  }

  /** The read model's folds at those revisions (or later ones, as the read model has moved on). */
  folds(revisions: readonly LiveRevision[]): Promise<QueueFold[]> {
    return Promise.all(
      revisions.map(async (row) => {
        const revision = String(row.revision);
        const cached = this.parsed.get(row.stream_id);
        if (cached && cached.revision === revision)
          return { baseRef: row.base_ref, streamId: row.stream_id, revision, fold: cached.fold };
        const { rows: folds } = await this.sql.query<{ fold: string; revision: string | number }>(
          `SELECT fold, revision FROM ${QUEUE_STATUS_TABLE} WHERE stream_id = $1`,
          [row.stream_id],
        );
        const fold = JSON.parse(folds[0]!.fold) as QueueStatusFold;
        const read = String(folds[0]!.revision);
        this.parsed.set(row.stream_id, { revision: read, fold });
        return { baseRef: row.base_ref, streamId: row.stream_id, revision: read, fold };
      }),
    );
  }

  /** When the repository's first queue event happened, or null when it has none. */
  async firstEventAt(repository: string): Promise<number | null> {
    const rows = await this.rows(repository);
    return rows.length === 0 ? null : Math.min(...rows.map((row) => Number(row.first_event_at)));
  }

  /** The queues as they were at `at` (epoch ms): only queues whose stream had begun by then. */
  async asOf(repository: string, at: number, branch?: string): Promise<QueueFold[]> {
    const rows = (await this.rows(repository, branch)).filter((row) => Number(row.first_event_at) <= at);
    return Promise.all(
      rows.map(async (row) => ({
        baseRef: row.base_ref,
        streamId: row.stream_id,
        revision: '-1',
        fold: await this.foldAsOf(row.stream_id, at),
      })),
    );
  }

  private async foldAsOf(streamId: string, at: number): Promise<QueueStatusFold> {
    const { rows } = await this.sql.query<{ revision: string | number; fold: string }>(
      `SELECT revision, fold FROM ${QUEUE_STATUS_HISTORY_TABLE}
       WHERE stream_id = $1 AND last_event_at <= $2 ORDER BY last_event_at DESC, revision DESC LIMIT 1`,
      [streamId, at],
    );
    let fold = rows[0]
      ? this.historyFold(streamId, String(rows[0].revision), rows[0].fold)
      : initialStatusFold();
    let from = rows[0] ? BigInt(rows[0].revision) + 1n : 0n;
    for (;;) {
      const page = await this.store.readStream(streamId, { fromRevision: from, maxCount: HISTORY_EVERY });
      for (const event of page.events) {
        const domainEvent = { type: event.type, data: event.data } as MergeQueueEvent;
        if (Date.parse(domainEvent.data.occurredAt) > at) return fold;
        fold = evolveStatus(fold, domainEvent);
      }
      if (page.events.length < HISTORY_EVERY) return fold;
      from = page.events[page.events.length - 1]!.revision + 1n;
    }
  }

  private historyFold(streamId: string, revision: string, text: string): QueueStatusFold {
    const key = `${streamId}@${revision}`;
    const known = this.history.get(key);
    if (known) return known;
    const fold = JSON.parse(text) as QueueStatusFold;
    this.history.set(key, fold);
    if (this.history.size > HISTORY_CACHE_SIZE) this.history.delete(this.history.keys().next().value!);
    return fold;
  }
}

const HISTORY_CACHE_SIZE = 16;
/** What a live answer is made of: the queues' folds and the pull requests' snapshots. */
const WATCHED_READ_MODELS = [queueStatusProjection.name, pullRequestSnapshotsProjection.name];
