import type { RecordedEvent } from '@switchyard/event-store';
import type { Projection } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import type { PullRequestSnapshot } from '../../port/pull-request-snapshot';
import type { GitHubFactEvent } from '../../facts/github-fact.events';
import type { PullRequestRead } from '../domain/pull-request-state.events';
import { withCheckReport, withPullRequestChange, withRead, withReview } from '../domain/snapshot-evolution';

export const SNAPSHOT_TABLE = 'github_pull_request_snapshots';

type SnapshotEvent =
  | Extract<
      GitHubFactEvent,
      {
        type:
          | 'github.pull_request_changed'
          | 'github.pull_request_reviewed'
          | 'github.check_run_reported'
          | 'github.commit_status_reported';
      }
    >
  | PullRequestRead;

const SNAPSHOT_EVENT_TYPES: readonly SnapshotEvent['type'][] = [
  'github.pull_request_changed',
  'github.pull_request_reviewed',
  'github.check_run_reported',
  'github.commit_status_reported',
  'github.pull_request_read',
];

interface Row {
  number: number;
  snapshot: PullRequestSnapshot | string;
  last_position: string;
}

/**
 * Each pull request's snapshot, kept from webhook facts and reads through the code host. Rows are
 * read, evolved and written back inside the projection's transaction; every write is guarded by
 * last_position, so an event applied twice changes nothing. Version 2: a read no longer replaces a
 * check that a fact recorded before it shows later in its life (withRead). Version 3: a read no
 * later than what is known no longer undoes a change a fact recorded before it (a label, withRead),
 * nor does a webhook delivered late (withPullRequestChange).
 */
export const pullRequestSnapshotsProjection: Projection = {
  name: 'code_host.pull_request_snapshots',
  version: 3,
  eventTypes: SNAPSHOT_EVENT_TYPES,

  async setup(tx) {
    await tx.exec(`
      CREATE TABLE IF NOT EXISTS ${SNAPSHOT_TABLE} (
        repository_key text NOT NULL,
        number integer NOT NULL,
        head_sha text NOT NULL,
        state text NOT NULL,
        snapshot jsonb NOT NULL,
        last_position text COLLATE "C" NOT NULL,
        PRIMARY KEY (repository_key, number)
      );
      CREATE INDEX IF NOT EXISTS ${SNAPSHOT_TABLE}_head ON ${SNAPSHOT_TABLE} (repository_key, head_sha);
    `);
  },

  async reset(tx) {
    await tx.exec(`DELETE FROM ${SNAPSHOT_TABLE};`);
  },

  async apply(tx, events) {
    for (const event of events) await applyOne(tx, event);
  },

  async countRecords(q) {
    const { rows } = await q.query<{ count: string | number }>(
      `SELECT count(*) AS count FROM ${SNAPSHOT_TABLE}`,
    );
    return Number(rows[0]?.count ?? 0);
  },
};

async function applyOne(tx: SqlQueryable, recorded: RecordedEvent): Promise<void> {
  const event = { type: recorded.type, data: recorded.data } as SnapshotEvent;
  switch (event.type) {
    case 'github.pull_request_changed': {
      const current = await snapshotRow(tx, event.data.repository, event.data.number);
      if (current && current.last_position >= recorded.position) return;
      await save(tx, withPullRequestChange(current ? parsed(current) : null, event.data), recorded.position);
      return;
    }
    case 'github.pull_request_read': {
      const current = await snapshotRow(tx, event.data.repository, event.data.number);
      if (current && current.last_position >= recorded.position) return;
      await save(tx, withRead(current ? parsed(current) : null, event.data), recorded.position);
      return;
    }
    case 'github.pull_request_reviewed': {
      const current = await snapshotRow(tx, event.data.repository, event.data.number);
      // A review of a pull request never seen: the read that follows its opening brings it.
      if (!current || current.last_position >= recorded.position) return;
      await save(tx, withReview(parsed(current), event.data), recorded.position);
      return;
    }
    case 'github.check_run_reported':
    case 'github.commit_status_reported': {
      const sha = event.type === 'github.check_run_reported' ? event.data.headSha : event.data.sha;
      const { rows } = await tx.query<Row>(
        `SELECT number, snapshot, last_position FROM ${SNAPSHOT_TABLE} WHERE repository_key = $1 AND head_sha = $2`,
        [event.data.repository, sha],
      );
      for (const row of rows) {
        if (row.last_position >= recorded.position) continue;
        await save(tx, withCheckReport(parsed(row), event.data), recorded.position);
      }
      return;
    }
  }
}

async function snapshotRow(tx: SqlQueryable, repository: string, number: number): Promise<Row | null> {
  const { rows } = await tx.query<Row>(
    `SELECT number, snapshot, last_position FROM ${SNAPSHOT_TABLE} WHERE repository_key = $1 AND number = $2`,
    [repository, number],
  );
  return rows[0] ?? null;
}

const parsed = (row: Row): PullRequestSnapshot =>
  typeof row.snapshot === 'string' ? (JSON.parse(row.snapshot) as PullRequestSnapshot) : row.snapshot;

async function save(tx: SqlQueryable, snapshot: PullRequestSnapshot, position: string): Promise<void> {
  await tx.query(
    `INSERT INTO ${SNAPSHOT_TABLE} (repository_key, number, head_sha, state, snapshot, last_position)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6)
     ON CONFLICT (repository_key, number) DO UPDATE
       SET head_sha = EXCLUDED.head_sha, state = EXCLUDED.state, snapshot = EXCLUDED.snapshot,
           last_position = EXCLUDED.last_position
       WHERE ${SNAPSHOT_TABLE}.last_position < EXCLUDED.last_position`,
    [
      snapshot.repository.fullName.toLowerCase(),
      snapshot.number,
      snapshot.head.sha,
      snapshot.state,
      JSON.stringify(snapshot),
      position,
    ],
  );
}
