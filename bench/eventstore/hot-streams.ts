import { CommandService, DEFAULT_SNAPSHOT_EVERY } from '@switchyard/event-store/application';
import { SqlEventStore } from '@switchyard/event-store/sql';
import {
  foldingQueueDecider,
  snapshottingQueueDecider,
  type QueueCommand,
} from '../../libs/event-store/src/testing/queue-decider';
import { bulkLoadEvents } from './bulk-load';
import type { FreshDatabase } from './filtered-feed';
import { median } from '../logs/latency';
import { timed } from './workload';

export interface HotStreamResult {
  snapshotEvery: number;
  shortEvents: number;
  longEvents: number;
  commands: number;
  shortMs: number;
  longMs: number;
  firstLongMs: number;
  longWithoutSnapshotsMs: number;
}

const SHORT = 100;
const LONG = 100_000;
const COMMANDS = 100;
const WITHOUT_SNAPSHOTS = 3;

/**
 * Command latency on a short and a long stream of the same decider (a queue whose state stays
 * small: each pull request is queued then dequeued), with snapshots every DEFAULT_SNAPSHOT_EVERY
 * events. The first command on the long stream folds all of it and writes the first snapshot; the
 * ones after fold the snapshot and the tail. The same command without snapshots shows what they save.
 */
export async function hotStreams(open: () => Promise<FreshDatabase>): Promise<HotStreamResult> {
  const database = await open();
  try {
    const store = await SqlEventStore.open(database.executor);
    const queueEvents = {
      typeSql: `CASE WHEN i % 2 = 0 THEN 'Queued' ELSE 'Dequeued' END`,
      dataSql: `jsonb_build_object('pullRequest', i / 2)`,
      streams: 1,
    };
    await bulkLoadEvents(database.executor, { ...queueEvents, events: SHORT, streamPrefix: 'queue_short-' });
    await bulkLoadEvents(database.executor, { ...queueEvents, events: LONG, streamPrefix: 'queue_long-' });
    const [short, long] = ['queue_short-0', 'queue_long-0'];
    const commands = new CommandService(store);
    const decider = snapshottingQueueDecider(DEFAULT_SNAPSHOT_EVERY);
    // Step k enqueues a pull request (even k) or dequeues it again (odd k): each appends one event.
    const step = async (stream: string, k: number, withSnapshots = true) => {
      const pullRequest = 1_000_000 + k - (k % 2);
      const command: QueueCommand =
        k % 2 === 0 ? { kind: 'enqueue', pullRequest } : { kind: 'dequeue', pullRequest };
      let appended = 0;
      const ms = await timed(async () => {
        const outcome = await commands.handle(stream, withSnapshots ? decider : foldingQueueDecider, command);
        appended = outcome.events.length;
      });
      if (appended !== 1) throw new Error(`step ${k} on ${stream} appended ${appended} events`);
      return ms;
    };

    const firstLongMs = await step(long, 0);
    await step(short, 0);
    const shortMs: number[] = [];
    const longMs: number[] = [];
    for (let k = 1; k <= COMMANDS; k++) {
      shortMs.push(await step(short, k));
      longMs.push(await step(long, k));
    }
    const withoutSnapshots: number[] = [];
    for (let k = COMMANDS + 1; k <= COMMANDS + WITHOUT_SNAPSHOTS; k++) {
      withoutSnapshots.push(await step(long, k, false));
    }
    return {
      snapshotEvery: DEFAULT_SNAPSHOT_EVERY,
      shortEvents: SHORT,
      longEvents: LONG,
      commands: COMMANDS,
      shortMs: median(shortMs),
      longMs: median(longMs),
      firstLongMs,
      longWithoutSnapshotsMs: median(withoutSnapshots),
    };
  } finally {
    await database.close();
  }
}
