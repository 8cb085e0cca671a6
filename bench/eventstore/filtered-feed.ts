import { SqlEventStore } from '@switchyard/event-store/sql';
import { type SqlExecutor } from '@switchyard/sql';
import { bulkLoadEvents } from './bulk-load';
import { readToEnd } from './store-reader';
import { median } from '../logs/latency';
import { timed } from './workload';

export interface FreshDatabase {
  executor: SqlExecutor;
  close(): Promise<void>;
}

export interface FilteredFeedResult {
  bigFeed: number;
  matching: number;
  baselineMs: number;
  filteredMs: number;
  unfilteredMs: number;
}

const PAGE_SIZE = 1_000;
const MATCH_EVERY = 100;
const ROUNDS = 3;
const WANTED = 'MergeQueueBatchFailed';

/**
 * A filtered catch-up must cost time in proportion to the events it returns: reading the 1 % of a
 * big feed that matches is compared with reading a feed that holds only those events (the
 * baseline), and with reading the big feed unfiltered. Both feeds are bulk-loaded with SQL.
 */
export async function filteredFeed(
  open: () => Promise<FreshDatabase>,
  bigFeed: number,
): Promise<FilteredFeedResult> {
  const matching = bigFeed / MATCH_EVERY;
  const small = await open();
  const big = await open();
  try {
    const smallStore = await SqlEventStore.open(small.executor);
    const bigStore = await SqlEventStore.open(big.executor);
    await bulkLoadEvents(small.executor, {
      events: matching,
      streamPrefix: 'merge_queue-',
      streams: 100,
      typeSql: `'${WANTED}'`,
    });
    await bulkLoadEvents(big.executor, {
      events: bigFeed,
      streamPrefix: 'pull_request-',
      streams: 10_000,
      typeSql: `CASE WHEN i % ${MATCH_EVERY} = 0 THEN '${WANTED}' ELSE 'PullRequestQueued' END`,
    });
    const filter = { eventTypes: [WANTED] };
    const baseline: number[] = [];
    const filtered: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(await timedRead(() => readToEnd(smallStore, PAGE_SIZE, filter), matching));
      filtered.push(await timedRead(() => readToEnd(bigStore, PAGE_SIZE, filter), matching));
    }
    const unfilteredMs = await timedRead(() => readToEnd(bigStore, PAGE_SIZE), bigFeed);
    return { bigFeed, matching, baselineMs: median(baseline), filteredMs: median(filtered), unfilteredMs };
  } finally {
    await small.close();
    await big.close();
  }
}

async function timedRead(read: () => Promise<number>, expected: number): Promise<number> {
  let count = 0;
  const ms = await timed(async () => {
    count = await read();
  });
  if (count !== expected) throw new Error(`read ${count} events, expected ${expected}`);
  return ms;
}
