import type { Position, RecordedEvent } from '@switchyard/event-store';
import type { Projection } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import {
  type AutoQuarantineSettings,
  type TestQuarantined,
  type TestQuarantineEvent,
  testQuarantineEventTypes,
} from '../domain/test-quarantine';

export const QUARANTINE_TABLE = 'test_quarantines';
export const AUTO_QUARANTINE_TABLE = 'test_auto_quarantine_settings';

/**
 * One row per quarantine, active or lifted (a lifted one keeps its row so its last_position still
 * guards against replays), and one row per repository for the auto-quarantine switch.
 */
export const testQuarantineProjection: Projection = {
  name: 'test_engine.quarantines',
  version: 1,
  eventTypes: testQuarantineEventTypes,

  async setup(tx) {
    await tx.exec(`
      CREATE TABLE IF NOT EXISTS ${QUARANTINE_TABLE} (
        id uuid PRIMARY KEY,
        repository_key text NOT NULL,
        test_name text NOT NULL,
        test_id uuid NOT NULL,
        reason text NOT NULL,
        branch text,
        pipeline_name text,
        job_name text,
        source text NOT NULL,
        unquarantine_when_healthy boolean NOT NULL,
        created_at timestamptz NOT NULL,
        active boolean NOT NULL,
        last_position text COLLATE "C" NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ${QUARANTINE_TABLE}_active
        ON ${QUARANTINE_TABLE} (repository_key, test_name) WHERE active;
      CREATE INDEX IF NOT EXISTS ${QUARANTINE_TABLE}_by_creation
        ON ${QUARANTINE_TABLE} (repository_key, created_at, id) WHERE active;
      CREATE TABLE IF NOT EXISTS ${AUTO_QUARANTINE_TABLE} (
        repository_key text PRIMARY KEY,
        enabled boolean NOT NULL,
        ignore_broken_on_default_branch boolean NOT NULL,
        last_position text COLLATE "C" NOT NULL
      );
    `);
  },

  async reset(tx) {
    await tx.exec(`DELETE FROM ${QUARANTINE_TABLE}; DELETE FROM ${AUTO_QUARANTINE_TABLE};`);
  },

  async apply(tx, events) {
    for (const event of events) await applyOne(tx, event);
  },

  async countRecords(q) {
    const { rows } = await q.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM ${QUARANTINE_TABLE}`,
    );
    return rows[0]?.count ?? 0;
  },
};

async function applyOne(tx: SqlQueryable, recorded: RecordedEvent): Promise<void> {
  const event = { type: recorded.type, data: recorded.data } as TestQuarantineEvent;
  switch (event.type) {
    case 'test_quarantine.quarantined':
      await insertQuarantine(tx, recorded.position, event.data);
      return;
    case 'test_quarantine.dequarantined':
      await tx.query(
        `UPDATE ${QUARANTINE_TABLE} SET active = false, last_position = $2
         WHERE id = $1 AND last_position < $2`,
        [event.data.quarantineId, recorded.position],
      );
      return;
    case 'test_quarantine.auto_quarantine_enabled':
      await putSettings(tx, recorded.position, event.data.repository, true, event.data.settings);
      return;
    case 'test_quarantine.auto_quarantine_modified':
      await putSettings(tx, recorded.position, event.data.repository, true, event.data.after);
      return;
    case 'test_quarantine.auto_quarantine_disabled':
      await putSettings(tx, recorded.position, event.data.repository, false, event.data.settings);
      return;
  }
}

async function insertQuarantine(tx: SqlQueryable, position: Position, d: TestQuarantined['data']) {
  await tx.query(
    `INSERT INTO ${QUARANTINE_TABLE} (id, repository_key, test_name, test_id, reason, branch, pipeline_name,
       job_name, source, unquarantine_when_healthy, created_at, active, last_position)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, true, $12)
     ON CONFLICT (id) DO NOTHING`,
    [
      d.quarantineId,
      d.repository,
      d.testName,
      d.testId,
      d.reason,
      d.branch,
      d.pipelineName,
      d.jobName,
      d.source,
      d.unquarantineWhenHealthy,
      d.at,
      position,
    ],
  );
}

async function putSettings(
  tx: SqlQueryable,
  position: Position,
  repository: string,
  enabled: boolean,
  settings: AutoQuarantineSettings,
): Promise<void> {
  await tx.query(
    `INSERT INTO ${AUTO_QUARANTINE_TABLE} (repository_key, enabled, ignore_broken_on_default_branch, last_position)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (repository_key) DO UPDATE
       SET enabled = EXCLUDED.enabled,
           ignore_broken_on_default_branch = EXCLUDED.ignore_broken_on_default_branch,
           last_position = EXCLUDED.last_position
       WHERE ${AUTO_QUARANTINE_TABLE}.last_position < EXCLUDED.last_position`,
    [repository, enabled, settings.ignoreBrokenOnDefaultBranch, position],
  );
}
