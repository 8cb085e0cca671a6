import type { RecordedEvent } from '@switchyard/event-store';
import { mergeQueueLogMapping } from '@switchyard/merge-queue';
import type { LogQuery, ValueFilter } from '../domain/log-query';
import type { LogMapping } from '@switchyard/activity-log-contract';
import { combineMappings, toLogRecordRows, type LogRecordRow } from '../projection/log-record-rows';
import type { FilterDimension } from '../query/filter-conditions';

/** A log record as the projection must store it, for checking queries against plain JavaScript. */
export interface ReferenceRecord extends LogRecordRow {
  id: number;
}

/** What a projection applied from empty, in feed order, must contain. */
export function referenceRecords(
  events: readonly RecordedEvent[],
  mappings: readonly LogMapping[] = [mergeQueueLogMapping],
): ReferenceRecord[] {
  return toLogRecordRows(combineMappings(mappings), events).map((row, index) => ({ ...row, id: index + 1 }));
}

const inList = <T>(filter: ValueFilter<T> | undefined, value: T | null): boolean => {
  if (!filter) return true;
  const listed = value !== null && filter.values.includes(value);
  return filter.mode === 'include' ? listed : !listed;
};

const batchMatches = (filter: ValueFilter<number> | undefined, numbers: readonly number[]): boolean => {
  if (!filter) return true;
  const listed = numbers.some((n) => filter.values.includes(n));
  return filter.mode === 'include' ? listed : !listed;
};

/** The spec's filter semantics, written plainly. */
export function matchesQuery(record: ReferenceRecord, query: LogQuery, ignored?: FilterDimension): boolean {
  const f = query.filters;
  const at = record.receivedAt.getTime();
  return (
    record.repository === query.repository &&
    at >= query.window.from.getTime() &&
    at <= query.window.to.getTime() &&
    (ignored === 'pullRequest' || inList(f.pullRequest, record.pullRequest)) &&
    (ignored === 'batchPullRequest' || batchMatches(f.batchPullRequest, record.batchPullRequests)) &&
    (ignored === 'eventType' || inList(f.eventType, record.type)) &&
    (ignored === 'outcome' || inList(f.outcome, record.outcome as never)) &&
    (ignored === 'trigger' || inList(f.trigger, record.trigger)) &&
    (ignored === 'baseRef' || f.baseRef === undefined || record.baseRef === f.baseRef)
  );
}

/** Newest first, as GET logs pages. */
export const newestFirst = (a: ReferenceRecord, b: ReferenceRecord): number =>
  b.receivedAt.getTime() - a.receivedAt.getTime() || b.id - a.id;

/**
 * Compares two id lists and reports where they first differ: jest's diff of two long arrays that
 * disagree can take minutes.
 */
export function expectSameIds(actual: readonly number[], expected: readonly number[]): void {
  const at = actual.findIndex((id, index) => id !== expected[index]);
  const firstDifference =
    at === -1 && actual.length !== expected.length ? Math.min(actual.length, expected.length) : at;
  expect({
    length: actual.length,
    firstDifference: firstDifference === -1 ? null : firstDifference,
    around: firstDifference === -1 ? [] : actual.slice(Math.max(0, firstDifference - 2), firstDifference + 3),
  }).toEqual({
    length: expected.length,
    firstDifference: null,
    around: [],
  });
}
