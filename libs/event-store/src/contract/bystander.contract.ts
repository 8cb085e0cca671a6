import type { Bystander, HeldTransaction } from '@switchyard/testing';
import type { EventStore, Position } from '../types';
import { StreamNames, SubscriptionProbe, events, eventsOf, newEvent, untilSettled } from './contract-helpers';
import { writersWithLiveSubscriber } from './concurrency.contract';

/**
 * How long a write's read-your-writes wait lasts by default (SWITCHYARD_READ_YOUR_WRITES_TIMEOUT_MS):
 * what "answers within its usual time" means here. A bystander used to hold the feed for as long
 * as it stayed open, so these waits ran out.
 */
const USUAL_WAIT_MS = 5_000;

/** Fails with a message instead of hanging until the test's own timeout. */
async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Only the store's own appends may hold its readers back (settled-horizon.ts): a transaction left
 * open elsewhere on the server, in another database or on a table outside the store, must not stop
 * appends, reads, live subscriptions or read-your-writes, and must not open a gap either.
 */
export function describeBystanderContract(
  store: () => EventStore,
  names: StreamNames,
  startOfNewEvents: (store: EventStore) => Promise<Position | 'start'>,
  bystanders: readonly Bystander[],
): void {
  describe.each(bystanders.map((bystander) => [bystander.name, bystander] as const))(
    'with a transaction held open %s',
    (_name, bystander) => {
      let before: Position | 'start';
      let held: HeldTransaction | null = null;
      beforeEach(async () => {
        before = await startOfNewEvents(store());
        held = await bystander.hold();
      });
      afterEach(async () => {
        await held?.release();
        held = null;
      });

      it('appends go on, and each is read within the usual read-your-writes wait', async () => {
        const stream = names.next('bystanded');
        const first = await store().appendToStream(stream, events(2), { expectedRevision: 'no_stream' });
        await untilSettled(store(), first.lastPosition, USUAL_WAIT_MS);
        const second = await store().appendToStream(stream, events(1), { expectedRevision: 1n });
        await untilSettled(store(), second.lastPosition, USUAL_WAIT_MS);

        const page = await store().readAll({ after: before, limit: 100 });
        expect(page.events.filter((e) => e.streamId === stream).map((e) => e.revision)).toEqual([0n, 1n, 2n]);
        expect(await store().headPosition()).toBe(second.lastPosition);
      });

      it('a live subscriber receives new events', async () => {
        const probe = new SubscriptionProbe(store(), { after: before });
        try {
          const live = newEvent('LiveBesideBystander');
          const appended = await store().appendToStream(names.next('bystanded'), [live], {
            expectedRevision: 'no_stream',
          });
          const items = await within(
            probe.takeUntil((item) => item.kind === 'event' && item.event.position === appended.lastPosition),
            USUAL_WAIT_MS,
            'the live event',
          );
          expect(eventsOf(items).map((e) => e.eventId)).toContain(live.eventId);
        } finally {
          await probe.stop();
        }
      });

      it(
        'concurrent writers with a live subscriber: every event once, nothing missing, streams in order',
        () =>
          within(
            writersWithLiveSubscriber(store(), names.next('bystbusy').replace('-', 'n')),
            45_000,
            'the writers and their subscriber',
          ),
        60_000,
      );
    },
  );
}
