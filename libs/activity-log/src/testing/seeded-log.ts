import type { RecordedEvent } from '@switchyard/event-store';
import type { SqlExecutor } from '@switchyard/sql';
import { mergeQueueLogMapping } from '@switchyard/merge-queue';
import type { LogQuery } from '../domain/log-query';
import { createActivityLogProjection } from '../projection/activity-log-projection';
import { ListLogs, type LogPage, type PageStart } from '../query/list-logs';
import { queueWorkload } from '@switchyard/merge-queue/testing';
import { RecordedEventFeed } from './recorded-events';

export const SEEDED_FROM = new Date('2026-07-01T00:00:00Z');
export const SEEDED_TO = new Date('2026-07-04T00:00:00Z');

/** Two repositories over three days whose pull request numbers overlap, interleaved as they would arrive. */
export function seededEvents(feed = new RecordedEventFeed()): RecordedEvent[] {
  const mono = [
    ...queueWorkload({ repository: 'acme/mono', seed: 11, from: SEEDED_FROM, to: SEEDED_TO, events: 2500 }),
  ];
  const other = [
    ...queueWorkload({ repository: 'acme/other', seed: 12, from: SEEDED_FROM, to: SEEDED_TO, events: 500 }),
  ];
  const events: RecordedEvent[] = [];
  for (let i = 0; i < Math.max(mono.length, other.length); i++) {
    for (const append of [mono[i], other[i]])
      if (append) events.push(...feed.record(append.events, append.streamId));
  }
  return events;
}

export const activityLogProjection = () => createActivityLogProjection([mergeQueueLogMapping]);

export async function applyInBatches(
  db: SqlExecutor,
  events: readonly RecordedEvent[],
  size = 200,
): Promise<void> {
  const projection = activityLogProjection();
  for (let start = 0; start < events.length; start += size) {
    await db.transaction((tx) => projection.apply(tx, events.slice(start, start + size)));
  }
}

/** Follows next links from the first page to the last, as the CLI does. */
export async function walkForward(
  list: ListLogs,
  query: LogQuery,
  perPage: number,
  between?: (page: LogPage) => Promise<void>,
): Promise<LogPage[]> {
  const pages: LogPage[] = [];
  let start: PageStart | undefined;
  for (;;) {
    const page = await list.page(query, perPage, start);
    pages.push(page);
    if (!page.next) return pages;
    if (between) await between(page);
    start = page.next;
  }
}

/** Every id GET logs would list for the query, in page order. */
export async function listAll(list: ListLogs, query: LogQuery): Promise<number[]> {
  const pages = await walkForward(list, query, 100);
  return pages.flatMap((page) => page.events.map((event) => event.id));
}
