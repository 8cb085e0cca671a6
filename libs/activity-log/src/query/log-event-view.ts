/** A log record as GET logs returns it (spec "Event"). */
export interface LogEventView {
  id: number;
  received_at: string;
  trigger: string;
  repository: string;
  pull_request: number | null;
  base_ref: string | null;
  outcome: string;
  type: string;
  metadata: Record<string, unknown>;
}

export interface LogRow {
  id: string | number;
  received_at: Date | string;
  trigger: string;
  repository: string;
  pull_request: string | number | null;
  base_ref: string | null;
  outcome: string;
  type: string;
  metadata: Record<string, unknown>;
}

export const LOG_ROW_COLUMNS =
  'l.id, l.received_at, l.trigger, l.repository, l.pull_request, l.base_ref, l.outcome, l.type, l.metadata';

export const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

export const toLogEventView = (row: LogRow): LogEventView => ({
  id: Number(row.id),
  received_at: toDate(row.received_at).toISOString(),
  trigger: row.trigger,
  repository: row.repository,
  pull_request: row.pull_request === null ? null : Number(row.pull_request),
  base_ref: row.base_ref,
  outcome: row.outcome,
  type: row.type,
  metadata: row.metadata,
});
