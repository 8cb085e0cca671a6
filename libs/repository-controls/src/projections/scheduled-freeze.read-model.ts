import type { SqlQueryable } from '@switchyard/sql';
import type { CalendarFreeze } from '../domain/calendar/freeze-calendar';
import {
  type ScheduledFreezeAttributesJson,
  type ScheduledFreezeJson,
  scheduledFreezeJson,
} from '../json/scheduled-freeze.json';
import { FREEZE_TABLE } from './scheduled-freeze.projection';

interface FreezeRow {
  id: string;
  attributes: ScheduledFreezeAttributesJson | string;
  start_ms: number;
  end_ms: number | null;
}

/**
 * Instants leave SQL as epoch milliseconds, not timestamptz: PGlite's driver reads years 1–99 as
 * 1901–1999 (a two-digit-year rule), and freezes may start that early.
 */
const ROW_COLUMNS = `id::text AS id, attributes,
  (extract(epoch FROM start_at) * 1000)::float8 AS start_ms,
  (extract(epoch FROM end_at) * 1000)::float8 AS end_ms`;

// node-postgres parses json columns; keep a string fallback for drivers that do not.
const attributesOf = (row: FreezeRow): ScheduledFreezeAttributesJson =>
  typeof row.attributes === 'string' ? JSON.parse(row.attributes) : row.attributes;

/** Ongoing and scheduled freezes of a repository (not ended, not cancelled), in start order. */
async function currentRows(sql: SqlQueryable, repository: string, now: Date): Promise<FreezeRow[]> {
  const { rows } = await sql.query<FreezeRow>(
    `SELECT ${ROW_COLUMNS} FROM ${FREEZE_TABLE}
     WHERE repository_key = $1 AND NOT cancelled AND (end_at IS NULL OR end_at > $2)
     ORDER BY start_at, id`,
    [repository, now.toISOString()],
  );
  return rows;
}

export async function listCurrentFreezes(
  sql: SqlQueryable,
  repository: string,
  now: Date,
): Promise<ScheduledFreezeJson[]> {
  return (await currentRows(sql, repository, now)).map((row) =>
    scheduledFreezeJson(row.id, attributesOf(row)),
  );
}

/** One freeze of a repository, ended or not; null when unknown there or cancelled. */
export async function findFreeze(
  sql: SqlQueryable,
  repository: string,
  id: string,
): Promise<ScheduledFreezeJson | null> {
  const { rows } = await sql.query<FreezeRow>(
    `SELECT ${ROW_COLUMNS} FROM ${FREEZE_TABLE}
     WHERE id = $1 AND repository_key = $2 AND NOT cancelled`,
    [id, repository],
  );
  const row = rows[0];
  return row ? scheduledFreezeJson(row.id, attributesOf(row)) : null;
}

/** The calendar's input for a repository: every freeze still in force or to come. */
export async function calendarFreezes(
  sql: SqlQueryable,
  repository: string,
  now: Date,
): Promise<CalendarFreeze[]> {
  return (await currentRows(sql, repository, now)).map((row) => {
    const attributes = attributesOf(row);
    return {
      id: row.id,
      startAt: new Date(row.start_ms),
      endAt: row.end_ms === null ? null : new Date(row.end_ms),
      matchingConditions: attributes.matching_conditions,
      excludeConditions: attributes.exclude_conditions,
    };
  });
}
