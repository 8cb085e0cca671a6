/**
 * A stream's category is the part of its id before the first '-' (`scheduled_freeze-<id>` belongs to
 * `scheduled_freeze`), as in EventStoreDB's $ce- streams and message-db; an id without '-' is its own
 * category. Category names therefore never contain '-'.
 */
export const CATEGORY_SEPARATOR = '-';

export const streamCategory = (streamId: string): string => {
  const end = streamId.indexOf(CATEGORY_SEPARATOR);
  return end < 0 ? streamId : streamId.slice(0, end);
};

/** The same rule in SQL, word for word the expression the category index is built on. */
export const SQL_STREAM_CATEGORY = `split_part(stream_id, '${CATEGORY_SEPARATOR}', 1)`;
