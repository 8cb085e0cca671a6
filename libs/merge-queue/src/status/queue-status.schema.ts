export const QUEUE_STATUS_TABLE = 'merge_queue_status';
export const QUEUE_STATUS_HISTORY_TABLE = 'merge_queue_status_history';
/** The minutes in which each queue had events (GET queues/branches over a time range). */
export const QUEUE_ACTIVITY_TABLE = 'merge_queue_status_activity';

/** The tables with their primary keys, as a bulk load fills them. */
export const QUEUE_STATUS_TABLES_DDL = `
  CREATE TABLE IF NOT EXISTS ${QUEUE_STATUS_TABLE} (
    repository_key text NOT NULL,
    base_ref text NOT NULL,
    stream_id text NOT NULL,
    revision bigint NOT NULL,
    first_event_at bigint NOT NULL,
    active boolean NOT NULL,
    fold text NOT NULL,
    PRIMARY KEY (repository_key, base_ref)
  );
  CREATE TABLE IF NOT EXISTS ${QUEUE_STATUS_HISTORY_TABLE} (
    stream_id text NOT NULL,
    revision bigint NOT NULL,
    last_event_at bigint NOT NULL,
    fold text NOT NULL,
    PRIMARY KEY (stream_id, revision)
  );
  CREATE TABLE IF NOT EXISTS ${QUEUE_ACTIVITY_TABLE} (
    repository_key text NOT NULL,
    base_ref text NOT NULL,
    minute bigint NOT NULL,
    PRIMARY KEY (repository_key, minute, base_ref)
  );
`;

/** `?at=` finds a queue's last kept fold before a time through this index. */
export const QUEUE_STATUS_INDEX_DDL = `CREATE INDEX IF NOT EXISTS ${QUEUE_STATUS_HISTORY_TABLE}_at ON ${QUEUE_STATUS_HISTORY_TABLE} (stream_id, last_event_at);`;

export const STATUS_COLUMNS = [
  'repository_key',
  'base_ref',
  'stream_id',
  'revision',
  'first_event_at',
  'active',
  'fold',
] as const;
export const HISTORY_COLUMNS = ['stream_id', 'revision', 'last_event_at', 'fold'] as const;
export const ACTIVITY_COLUMNS = ['repository_key', 'base_ref', 'minute'] as const;
