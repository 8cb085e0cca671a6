import type { Position, RecordedEvent } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';

/** An event from outside that a processor could not apply and went on past (see ProcessorRunner). */
export interface ParkedEvent {
  id: string;
  processor: string;
  position: Position;
  eventId: string;
  type: string;
  streamId: string;
  revision: string;
  error: string;
  attempts: number;
  parkedAt: string;
  /** Set while an operator's replay waits for the processor's owner to carry it out. */
  replayRequestedAt: string | null;
  /** Set once a replay applied it: it no longer counts as parked. */
  replayedAt: string | null;
  /** Why the last replay failed (it stays parked). */
  lastReplayError: string | null;
}

interface ParkedRow {
  id: string | number;
  processor: string;
  position: string;
  event_id: string;
  event_type: string;
  stream_id: string;
  revision: string;
  error: string;
  attempts: number;
  parked_at: Date | string;
  replay_requested_at: Date | string | null;
  replayed_at: Date | string | null;
  last_replay_error: string | null;
}

const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

const toParked = (row: ParkedRow): ParkedEvent => ({
  id: String(row.id),
  processor: row.processor,
  position: row.position,
  eventId: row.event_id,
  type: row.event_type,
  streamId: row.stream_id,
  revision: row.revision,
  error: row.error,
  attempts: Number(row.attempts),
  parkedAt: iso(row.parked_at)!,
  replayRequestedAt: iso(row.replay_requested_at),
  replayedAt: iso(row.replayed_at),
  lastReplayError: row.last_replay_error,
});

/** Records the event as parked by the processor (once: parking it again after a crash changes nothing). */
export async function parkEvent(
  q: SqlQueryable,
  processor: string,
  event: RecordedEvent,
  error: string,
  attempts: number,
): Promise<void> {
  await q.query(
    `INSERT INTO sy_parked_events (processor, position, event_id, event_type, stream_id, revision, error, attempts)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (processor, position) DO NOTHING`,
    [
      processor,
      event.position,
      event.eventId,
      event.type,
      event.streamId,
      event.revision.toString(),
      error,
      attempts,
    ],
  );
}

/** The parked events, oldest first; `all` includes those already replayed. */
export async function listParkedEvents(
  q: SqlQueryable,
  options: { processor?: string; all?: boolean } = {},
): Promise<ParkedEvent[]> {
  const { rows } = await q.query<ParkedRow>(
    `SELECT * FROM sy_parked_events
     WHERE ($1::text IS NULL OR processor = $1) AND ($2 OR replayed_at IS NULL)
     ORDER BY id LIMIT 1000`,
    [options.processor ?? null, options.all ?? false],
  );
  return rows.map(toParked);
}

export async function findParkedEvent(q: SqlQueryable, id: string): Promise<ParkedEvent | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const { rows } = await q.query<ParkedRow>('SELECT * FROM sy_parked_events WHERE id = $1', [id]);
  return rows[0] ? toParked(rows[0]) : null;
}

/** Parked (not yet replayed) events per processor. */
export async function countParkedEvents(q: SqlQueryable): Promise<Map<string, number>> {
  const { rows } = await q.query<{ processor: string; parked: string | number }>(
    `SELECT processor, count(*) AS parked FROM sy_parked_events WHERE replayed_at IS NULL GROUP BY processor`,
  );
  return new Map(rows.map((row) => [row.processor, Number(row.parked)]));
}

/**
 * Asks the processor's owner, wherever it runs, to apply the event again; false when there is no
 * such parked event or it was replayed already.
 */
export async function requestReplay(q: SqlQueryable, id: string): Promise<boolean> {
  if (!/^\d{1,18}$/.test(id)) return false;
  const { rowCount } = await q.query(
    `UPDATE sy_parked_events SET replay_requested_at = now(), last_replay_error = NULL
     WHERE id = $1 AND replayed_at IS NULL`,
    [id],
  );
  return rowCount === 1;
}

/** The replays asked of these processors that nobody has carried out yet. */
export async function requestedReplays(
  q: SqlQueryable,
  processors: readonly string[],
): Promise<ParkedEvent[]> {
  if (processors.length === 0) return [];
  const { rows } = await q.query<ParkedRow>(
    `SELECT * FROM sy_parked_events
     WHERE processor = ANY($1::text[]) AND replay_requested_at IS NOT NULL AND replayed_at IS NULL
     ORDER BY id`,
    [processors],
  );
  return rows.map(toParked);
}

/** The outcome of a replay: applied (no longer parked), or failed again (still parked, with why). */
export async function recordReplay(q: SqlQueryable, id: string, error: string | null): Promise<void> {
  await q.query(
    error === null
      ? `UPDATE sy_parked_events SET replayed_at = now(), replay_requested_at = NULL WHERE id = $1`
      : `UPDATE sy_parked_events SET last_replay_error = $2, replay_requested_at = NULL WHERE id = $1`,
    error === null ? [id] : [id, error],
  );
}

export type ReplayOutcome =
  | { outcome: 'unknown' }
  | { outcome: 'already-replayed'; parked: ParkedEvent }
  | { outcome: 'replayed'; parked: ParkedEvent }
  | { outcome: 'failed'; parked: ParkedEvent }
  /** Nobody carried it out in time (no process owns the processor now): it stays requested. */
  | { outcome: 'pending'; parked: ParkedEvent };

/**
 * Asks for a replay of the parked event and waits, up to timeoutMs, for the processor's owner to
 * carry it out (it looks for requests at each heartbeat, every few seconds).
 */
export async function replayParkedEvent(
  q: SqlQueryable,
  id: string,
  timeoutMs = 30_000,
): Promise<ReplayOutcome> {
  const before = await findParkedEvent(q, id);
  if (!before) return { outcome: 'unknown' };
  if (before.replayedAt) return { outcome: 'already-replayed', parked: before };
  await requestReplay(q, id);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const parked = (await findParkedEvent(q, id))!;
    if (parked.replayedAt) return { outcome: 'replayed', parked };
    if (parked.replayRequestedAt === null && parked.lastReplayError !== null)
      return { outcome: 'failed', parked };
    if (Date.now() >= deadline) return { outcome: 'pending', parked };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
